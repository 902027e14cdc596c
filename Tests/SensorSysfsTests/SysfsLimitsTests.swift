@testable import SensorConfig
@testable import SensorCore
@testable import SensorSysfs
import SensorTestKit
import Testing
@testable import SensorRuntime
/// Limits are read from hwmon limit files and thermal trip points at discovery (SPEC §16).
@Suite(.timeLimit(.minutes(1)))
struct SysfsLimitsTests {
    static func hwmon(
        _ tree: TemporaryDirectory, io: any SysfsIO = PosixSysfsIO(), plausible: PlausibleRange = .standard
    ) -> SysfsReader {
        SysfsReader(
            configuration: SourceConfiguration(
                kind: .hwmon, interval: .seconds(1), root: tree.root, plausible: plausible), io: io)
    }

    /// A discovery on another thread, stuck in the file ending in `suffix`, given up as the
    /// stall watch does (not at its first look, at the one a second later): the thread is
    /// still in the blocked read.
    static func discoveryGivenUp(
        _ reader: any SensorReader, io: SysfsFaultIO, blocking suffix: String
    ) async -> HungFileIsolationTests.Background {
        io.block(suffix)
        let stuck = HungFileIsolationTests.inBackground { _ = reader.discover() }
        #expect(await io.blockedCalls.until(1))
        #expect(!reader.isolateBlockedRead(now: .zero))
        #expect(reader.isolateBlockedRead(now: .seconds(1)))
        return stuck
    }

    static func limits(_ sensors: [SensorInfo]) -> [String: SensorLimits] {
        Dictionary(uniqueKeysWithValues: sensors.map { ($0.id.rawValue, $0.limits) })
    }

    @Test func hwmonLimitFilesAreReadWithTheirHystAndSentinelsIgnored() {
        let tree = TemporaryDirectory()
        tree.write([
            "hwmon0/name": "coretemp\n", "hwmon0/temp1_input": "45000\n", "hwmon0/temp1_max": "80000\n",
            "hwmon0/temp1_crit": "100000\n", "hwmon0/temp1_crit_hyst": "95000\n",
            "hwmon1/name": "nvme\n", "hwmon1/temp1_input": "38850\n", "hwmon1/temp1_crit": "84850\n",
            "hwmon1/temp1_max": "65261850\n", "hwmon1/temp1_min": "-273150\n",
            "hwmon2/name": "nct6798\n", "hwmon2/temp1_input": "30000\n", "hwmon2/temp1_max": "0\n",
            "hwmon2/temp1_min": "0\n", "hwmon2/temp1_max_hyst": "0\n",
        ])
        let limits = Self.limits(Self.hwmon(tree).discover())
        #expect(
            limits["hwmon:coretemp-virtual-0/temp1"] == SensorLimits(values: ["max": 80, "crit": 100, "crit_hyst": 95]))
        #expect(
            limits["hwmon:nvme-virtual-0/temp1"]
                == SensorLimits(
                    values: ["crit": 84.85],
                    ignored: [
                        "max": "65261.85 °C is not a plausible limit", "min": "-273.15 °C is not a plausible limit",
                    ]))
        #expect(
            limits["hwmon:nct6798-virtual-0/temp1"]
                == SensorLimits(
                    ignored: [
                        "max": "0 °C is not a plausible limit", "min": "0 °C is not below the upper limit (0 °C)",
                        "max_hyst": "max is ignored",
                    ]))
    }

    @Test func aLimitFileThatCannotBeReadIsIgnoredWithTheReason() {
        let tree = TemporaryDirectory()
        tree.write([
            "hwmon0/name": "k10temp\n", "hwmon0/temp1_input": "45000\n", "hwmon0/temp1_max": "70000\n",
            "hwmon0/temp1_crit": "junk\n",
        ])
        let io = SysfsFaultIO()
        io.failReads("temp1_max", errno: 5)
        #expect(
            Self.hwmon(tree, io: io).discover().first?.limits
                == SensorLimits(
                    ignored: ["max": "cannot be read", "crit": "not a number: \"junk\""]))
    }

    @Test func aLimitFileThatBlocksIsIgnoredAndTheSensorStillReads() async throws {
        let tree = TemporaryDirectory()
        tree.write([
            "hwmon0/name": "coretemp\n", "hwmon0/temp1_input": "45000\n", "hwmon0/temp1_crit": "100000\n",
            "hwmon0/temp1_max": "80000\n",
        ])
        let io = SysfsFaultIO()
        let reader = Self.hwmon(tree, io: io)
        let stuck = await Self.discoveryGivenUp(reader, io: io, blocking: "temp1_max")
        #expect(
            reader.discover().first?.limits == SensorLimits(values: ["crit": 100], ignored: ["max": "read blocked"]))
        #expect(reader.samples(at: .seconds(2)).first?.value == 45)
        io.unblock("temp1_max")
        await stuck.wait()
        #expect(reader.discover().first?.limits == SensorLimits(values: ["max": 80, "crit": 100]))
    }

    @Test func thermalTripsBecomeLimitsTheLowestActiveCountsAndHystIsADelta() throws {
        let tree = TemporaryDirectory()
        tree.write([
            "thermal_zone0/type": "acpitz\n", "thermal_zone0/temp": "27800\n",
            "thermal_zone0/trip_point_0_type": "critical\n", "thermal_zone0/trip_point_0_temp": "105000\n",
            "thermal_zone0/trip_point_0_hyst": "0\n",
            "thermal_zone0/trip_point_1_type": "passive\n", "thermal_zone0/trip_point_1_temp": "95000\n",
            "thermal_zone0/trip_point_1_hyst": "2000\n",
            "thermal_zone0/trip_point_2_type": "active\n", "thermal_zone0/trip_point_2_temp": "70000\n",
            "thermal_zone0/trip_point_3_type": "active\n", "thermal_zone0/trip_point_3_temp": "55000\n",
            "thermal_zone0/trip_point_3_hyst": "3000\n",
            "thermal_zone0/trip_point_4_type": "active\n", "thermal_zone0/trip_point_4_temp": "-32768000\n",
            "thermal_zone1/type": "x86_pkg_temp\n", "thermal_zone1/temp": "45000\n",
            "thermal_zone1/trip_point_0_type": "hot\n", "thermal_zone1/trip_point_0_temp": "-32768000\n",
            "thermal_zone2/type": "iwlwifi_1\n", "thermal_zone2/temp": "40000\n",
        ])
        let reader = try ThermalZoneReaderTests.reader(tree.root)
        let limits = Self.limits(reader.discover())
        #expect(
            limits["thermal:acpitz"]
                == SensorLimits(
                    values: [
                        "crit": 105, "crit_hyst": 105, "passive": 95, "passive_hyst": 93, "active": 55,
                        "active_hyst": 52,
                    ]))
        #expect(limits["thermal:x86_pkg_temp"] == SensorLimits(ignored: ["hot": "-32768 °C is not a plausible limit"]))
        #expect(limits["thermal:iwlwifi_1"] == SensorLimits.none)
    }

    /// A thermal zone's trip point is read alone (not in a chip's batch): one that blocks is
    /// ignored as `read blocked` too, and the zone still reads.
    @Test func aTripPointThatBlocksIsIgnoredAndTheZoneStillReads() async throws {
        let tree = TemporaryDirectory()
        tree.write([
            "thermal_zone0/type": "acpitz\n", "thermal_zone0/temp": "27800\n",
            "thermal_zone0/trip_point_0_type": "critical\n", "thermal_zone0/trip_point_0_temp": "105000\n",
            "thermal_zone0/trip_point_1_type": "passive\n", "thermal_zone0/trip_point_1_temp": "95000\n",
        ])
        let io = SysfsFaultIO()
        let reader = try ThermalZoneReaderTests.reader(tree.root, io: io)
        let stuck = await Self.discoveryGivenUp(reader, io: io, blocking: "trip_point_1_temp")
        #expect(
            reader.discover().first?.limits == SensorLimits(values: ["crit": 105], ignored: ["passive": "read blocked"])
        )
        #expect(reader.samples(at: .seconds(2)).first?.value == 27.8)
        io.unblock("trip_point_1_temp")
        await stuck.wait()
        #expect(reader.discover().first?.limits == SensorLimits(values: ["crit": 105, "passive": 95]))
    }

    @Test func aTemperatureAbove2000DegreesIsAnImplausibleValueAndPlausibleNarrowsIt() {
        let tree = TemporaryDirectory()
        tree.write([
            "hwmon0/name": "acpitz\n", "hwmon0/temp1_input": "3900000000\n", "hwmon0/temp2_input": "2000000\n",
            "hwmon0/temp3_input": "150000\n",
        ])
        let standard = Self.hwmon(tree).samples(at: .zero).map { $0.value.map { "\($0)" } ?? $0.fault ?? "" }
        #expect(standard == ["implausible value: 3900000 °C", "2000.0", "150.0"])
        let narrow = Self.hwmon(tree, plausible: PlausibleRange(min: -40, max: 125)).samples(at: .zero)
        #expect(
            narrow.map { $0.fault } == [
                "implausible value: 3900000 °C", "implausible value: 2000 °C", "implausible value: 150 °C",
            ])
    }
}

extension SysfsLimitsTests {
    @Test func aSourcesPlausibleRangeIsLoadedWithEitherEndLeftOut() throws {
        let files = TemporaryDirectory()
        files.write(
            "c.json5",
            "{ sources: [{ type: \"hwmon\", plausible: { max: 125 } }, { type: \"thermal\", plausible: { min: -40 } }, { type: \"iio\" }] }"
        )
        let configuration = try ConfigLoader.load(path: files.path("c.json5"))
        #expect(
            configuration.sources.map(\.plausible) == [
                PlausibleRange(max: 125), PlausibleRange(min: -40), .standard,
            ])
    }
}

/// Fans, voltages, power and current (SPEC §16a) with their limits.
extension SysfsLimitsTests {
    @Test func fansVoltagesPowerAndCurrentAreReadInTheirUnitsWithTheirLimits() {
        let tree = TemporaryDirectory()
        tree.write([
            "hwmon0/name": "nct6798\n",
            "hwmon0/fan1_input": "0\n", "hwmon0/fan1_min": "0\n",
            "hwmon0/fan2_input": "1264\n", "hwmon0/fan2_min": "300\n", "hwmon0/fan2_label": "CPU fan\n",
            "hwmon0/fan3_input": "900\n", "hwmon0/fan3_fault": "1\n",
            "hwmon0/in0_input": "1008\n", "hwmon0/in0_min": "0\n", "hwmon0/in0_max": "1744\n",
            "hwmon0/in5_input": "-12096\n", "hwmon0/in5_min": "-13000\n", "hwmon0/in5_max": "-11000\n",
            "hwmon0/in6_input": "3376\n", "hwmon0/in6_lcrit": "2900\n", "hwmon0/in6_min": "2976\n",
            "hwmon0/in6_max": "3632\n", "hwmon0/in6_crit": "3700\n",
            "hwmon0/power1_average": "23500000\n", "hwmon0/power1_cap": "65000000\n", "hwmon0/power1_max": "0\n",
            "hwmon0/power2_input": "1500000\n", "hwmon0/power2_average": "1400000\n",
            "hwmon0/curr1_input": "1250\n", "hwmon0/curr1_max": "5000\n", "hwmon0/curr1_min": "-100\n",
        ])
        let reader = Self.hwmon(tree)
        let sensors = reader.discover()
        #expect(
            sensors.map { "\($0.id) \($0.quantity.rawValue) \($0.unit)" } == [
                "hwmon:nct6798-virtual-0/curr1 current A", "hwmon:nct6798-virtual-0/fan1 fan rpm",
                "hwmon:nct6798-virtual-0/fan2 fan rpm",
                "hwmon:nct6798-virtual-0/fan3 fan rpm", "hwmon:nct6798-virtual-0/in0 voltage V",
                "hwmon:nct6798-virtual-0/in5 voltage V",
                "hwmon:nct6798-virtual-0/in6 voltage V", "hwmon:nct6798-virtual-0/power1 power W",
                "hwmon:nct6798-virtual-0/power2 power W",
            ])
        let limits = Self.limits(sensors)
        #expect(
            limits["hwmon:nct6798-virtual-0/fan1"] == SensorLimits(ignored: ["min": "0 rpm is not a plausible limit"]))
        #expect(limits["hwmon:nct6798-virtual-0/fan2"] == SensorLimits(values: ["min": 300]))
        #expect(limits["hwmon:nct6798-virtual-0/in0"] == SensorLimits(values: ["min": 0, "max": 1.744]))
        #expect(
            limits["hwmon:nct6798-virtual-0/in5"]
                == SensorLimits(
                    values: ["min": -13], ignored: ["max": "-11 V is not a plausible limit"]))
        #expect(
            limits["hwmon:nct6798-virtual-0/in6"]
                == SensorLimits(values: ["lcrit": 2.9, "min": 2.976, "max": 3.632, "crit": 3.7]))
        #expect(
            limits["hwmon:nct6798-virtual-0/power1"]
                == SensorLimits(values: ["cap": 65], ignored: ["max": "0 W is not a plausible limit"]))
        #expect(limits["hwmon:nct6798-virtual-0/curr1"] == SensorLimits(values: ["min": -0.1, "max": 5]))
        let read = reader.samples(at: .zero).map { $0.value.map { "\($0)" } ?? $0.fault ?? "" }
        #expect(
            read == [
                "1.25", "0.0", "1264.0", "sensor reports a fault (fan3_fault = 1)", "1.008", "-12.096", "3.376", "23.5",
                "1.5",
            ])
    }
}
