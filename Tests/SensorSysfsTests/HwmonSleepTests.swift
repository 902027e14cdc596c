#if canImport(Glibc)
import Glibc
#endif
import SensorConfig
import SensorCore
import SensorDaemon
import SensorSysfs
import SensorTestKit
import Testing
import SensorRuntime

/// Chips whose device sleeps (SPEC §20): a `power/runtime_status` of `suspended` on the
/// device or a parent leaves the chip unread — no open, no read — and its sensors `asleep`.
@Suite struct HwmonSleepTests {
    /// A GPU-like chip under `devices/pci0000:00/0000:00:01.0/0000:01:00.0` (the parent is a
    /// PCI bridge) and an always-awake chip without any power files.
    private static func tree(gpu: String = "suspended", bridge: String? = nil) -> TemporaryDirectory {
        let files = TemporaryDirectory()
        let gpuDevice = "devices/pci0000:00/0000:00:01.0/0000:01:00.0"
        files.write([
            gpuDevice + "/power/runtime_status": gpu + "\n",
            gpuDevice + "/hwmon/hwmon1/name": "amdgpu\n",
            gpuDevice + "/hwmon/hwmon1/temp1_input": "50000\n",
            "devices/platform/coretemp.0/hwmon/hwmon0/name": "coretemp\n",
            "devices/platform/coretemp.0/hwmon/hwmon0/temp1_input": "40000\n",
        ])
        if let bridge { files.write("devices/pci0000:00/0000:00:01.0/power/runtime_status", bridge + "\n") }
        files.mkdir("class/hwmon")
        files.symlink("class/hwmon/hwmon0", to: files.path("devices/platform/coretemp.0/hwmon/hwmon0"))
        files.symlink("class/hwmon/hwmon1", to: files.path(gpuDevice + "/hwmon/hwmon1"))
        files.symlink("devices/platform/coretemp.0/hwmon/hwmon0/device", to: files.path("devices/platform/coretemp.0"))
        files.symlink(gpuDevice + "/hwmon/hwmon1/device", to: files.path(gpuDevice))
        return files
    }

    private static func reader(_ files: TemporaryDirectory, io: SysfsFaultIO, wake: Bool = false) -> SysfsReader {
        SysfsReader(
            configuration: SourceConfiguration(
                kind: .hwmon, interval: .seconds(1), root: files.path("class/hwmon"), wake: wake),
            io: io)
    }

    /// The GPU's slot (ids sort `amdgpu-…` before `coretemp-…`).
    private static let gpu = 0
    private static let cpu = 1

    @Test func aSuspendedDeviceIsNeitherOpenedNorRead() {
        let files = Self.tree()
        let io = SysfsFaultIO()
        let reader = Self.reader(files, io: io)
        #expect(
            reader.discover().map(\.id.rawValue) == ["hwmon:amdgpu-pci-0100/temp1", "hwmon:coretemp-isa-0000/temp1"])
        let values = reader.poll(at: .seconds(1))[0]
        #expect(values.isAsleep(Self.gpu) && !values.wasRead(Self.gpu))
        #expect(values.faults.isEmpty)
        #expect(values.value(at: Self.cpu) == 40)
        #expect(io.opens("hwmon1/temp1_input") == 0)
    }

    @Test func aSuspendedParentPutsTheChipToSleep() {
        let files = Self.tree(gpu: "active", bridge: "suspended")
        let io = SysfsFaultIO()
        let reader = Self.reader(files, io: io)
        _ = reader.discover()
        let values = reader.poll(at: .seconds(1))[0]
        #expect(values.isAsleep(Self.gpu))
        #expect(io.opens("hwmon1/temp1_input") == 0)
    }

    @Test func anOpenChipThatFallsAsleepIsNotReadThroughItsKeptDescriptor() {
        let files = Self.tree(gpu: "active")
        let io = SysfsFaultIO()
        let reader = Self.reader(files, io: io)
        _ = reader.discover()
        #expect(reader.poll(at: .seconds(1))[0].value(at: Self.gpu) == 50)
        // Any read of the kept descriptor now would fail: asleep, none happens.
        io.failReads("hwmon1/temp1_input", errno: EIO)
        files.write("devices/pci0000:00/0000:00:01.0/0000:01:00.0/power/runtime_status", "suspended\n")
        let values = reader.poll(at: .seconds(2))[0]
        #expect(values.isAsleep(Self.gpu))
        #expect(values.faults.isEmpty)
    }

    @Test func aChipReadsAgainAtThePollAfterItsDeviceIsActive() {
        let files = Self.tree()
        let io = SysfsFaultIO()
        let reader = Self.reader(files, io: io)
        _ = reader.discover()
        #expect(reader.poll(at: .seconds(1))[0].isAsleep(Self.gpu))
        files.write("devices/pci0000:00/0000:00:01.0/0000:01:00.0/power/runtime_status", "active\n")
        let values = reader.poll(at: .seconds(2))[0]
        #expect(!values.isAsleep(Self.gpu) && values.value(at: Self.gpu) == 50)
        #expect(io.opens("hwmon1/temp1_input") == 1)
        // A power file that goes (the device left runtime PM) reads the chip too.
        files.remove("devices/pci0000:00/0000:00:01.0/0000:01:00.0/power/runtime_status")
        #expect(reader.poll(at: .seconds(3))[0].value(at: Self.gpu) == 50)
    }

    @Test func thePowerFilesAreKeptOpenAndReadOncePerPoll() {
        let files = Self.tree(gpu: "active", bridge: "active")
        let io = SysfsFaultIO()
        let reader = Self.reader(files, io: io)
        _ = reader.discover()
        // Discovery looks once (whether to read the chip's labels and limits); polls keep one open.
        #expect(io.opens("0000:01:00.0/power/runtime_status") == 1)
        for t in 1...3 { _ = reader.poll(at: .seconds(Double(t))) }
        #expect(io.opens("0000:01:00.0/power/runtime_status") == 2)
        #expect(io.opens("0000:00:01.0/power/runtime_status") == 2)
        // The chip without any power file up its chain has none to read.
        #expect(io.opens("coretemp.0/power/runtime_status") == 0)
    }

    /// The GPU chip of ``tree(gpu:bridge:)`` with a label and a limit, as amdgpu has.
    private static func labelled(gpu: String) -> TemporaryDirectory {
        let files = tree(gpu: gpu)
        files.write([
            "devices/pci0000:00/0000:00:01.0/0000:01:00.0/hwmon/hwmon1/temp1_label": "edge\n",
            "devices/pci0000:00/0000:00:01.0/0000:01:00.0/hwmon/hwmon1/temp1_crit": "100000\n",
        ])
        return files
    }

    private static let gpuStatus = "devices/pci0000:00/0000:00:01.0/0000:01:00.0/power/runtime_status"

    @Test func aChipAsleepSinceTheStartHasNoneOfItsFilesReadAtDiscoveryNorRediscovery() {
        let files = Self.labelled(gpu: "suspended")
        let io = SysfsFaultIO()
        let reader = Self.reader(files, io: io)
        for _ in 1...2 {
            let infos = reader.discover()
            #expect(infos.map(\.id.rawValue) == ["hwmon:amdgpu-pci-0100/temp1", "hwmon:coretemp-isa-0000/temp1"])
            #expect(infos[Self.gpu].label == "" && infos[Self.gpu].limits.isEmpty)
            _ = reader.poll(at: .seconds(1))
        }
        #expect(io.opens("hwmon1/temp1_label") == 0)
        #expect(io.opens("hwmon1/temp1_crit") == 0)
        #expect(io.opens("hwmon1/temp1_input") == 0)
        #expect(!reader.devicesChanged())
    }

    @Test func aChipThatFallsAsleepKeepsItsLabelAndLimitsAcrossARediscoveryWithoutReadingThem() {
        let files = Self.labelled(gpu: "active")
        let io = SysfsFaultIO()
        let reader = Self.reader(files, io: io)
        #expect(reader.discover()[Self.gpu].label == "edge")
        files.write(Self.gpuStatus, "suspended\n")
        #expect(reader.poll(at: .seconds(1))[0].isAsleep(Self.gpu))
        let infos = reader.discover()
        #expect(infos[Self.gpu].label == "edge" && infos[Self.gpu].limits["crit"] == 100)
        #expect(io.opens("hwmon1/temp1_label") == 1)
        #expect(io.opens("hwmon1/temp1_crit") == 1)
        #expect(reader.poll(at: .seconds(2))[0].isAsleep(Self.gpu))
    }

    @Test func aChipThatWakesIsDiscoveredAgainAtOnceWithItsLabelAndLimits() {
        let files = Self.labelled(gpu: "suspended")
        let io = SysfsFaultIO()
        let reader = Self.reader(files, io: io)
        _ = reader.discover()
        #expect(reader.poll(at: .seconds(1))[0].isAsleep(Self.gpu))
        #expect(!reader.devicesChanged())
        files.write(Self.gpuStatus, "active\n")
        #expect(reader.poll(at: .seconds(2))[0].value(at: Self.gpu) == 50)
        // The poll that saw it awake asks for the discovery its labels and limits wait for.
        #expect(reader.devicesChanged())
        let infos = reader.discover()
        #expect(infos[Self.gpu].label == "edge" && infos[Self.gpu].limits["crit"] == 100)
        #expect(!reader.devicesChanged())
    }

    @Test func aChipThatWakesBetweenItsDiscoveryAndThePollIsDiscoveredAgain() {
        let files = Self.labelled(gpu: "suspended")
        let io = SysfsFaultIO()
        let reader = Self.reader(files, io: io)
        _ = reader.discover()
        files.write(Self.gpuStatus, "active\n")
        #expect(reader.poll(at: .seconds(1))[0].value(at: Self.gpu) == 50)
        #expect(reader.devicesChanged())
    }

    @Test func aThermalZoneOfASuspendedDeviceHasItsTripPointsReadOnlyOnceItWakes() {
        let files = TemporaryDirectory()
        let wifi = "devices/pci0000:00/0000:00:1c.0/0000:03:00.0"
        files.write([
            wifi + "/power/runtime_status": "suspended\n",
            "thermal/thermal_zone0/type": "iwlwifi_1\n",
            "thermal/thermal_zone0/temp": "45000\n",
            "thermal/thermal_zone0/trip_point_0_type": "critical\n",
            "thermal/thermal_zone0/trip_point_0_temp": "118000\n",
        ])
        files.symlink("thermal/thermal_zone0/device", to: files.path(wifi))
        let io = SysfsFaultIO()
        let reader = SysfsReader(
            configuration: SourceConfiguration(kind: .thermal, interval: .seconds(1), root: files.path("thermal")),
            io: io)
        #expect(reader.discover()[0].limits.isEmpty)
        #expect(reader.poll(at: .seconds(1))[0].isAsleep(0))
        #expect(io.opens("trip_point_0_temp") == 0 && io.opens("trip_point_0_type") == 0)
        files.write(wifi + "/power/runtime_status", "active\n")
        #expect(reader.poll(at: .seconds(2))[0].value(at: 0) == 45)
        #expect(reader.devicesChanged())
        #expect(reader.discover()[0].limits["crit"] == 118)
    }

    @Test func wakeTrueReadsASuspendedChip() {
        let files = Self.tree()
        let io = SysfsFaultIO()
        let reader = Self.reader(files, io: io, wake: true)
        _ = reader.discover()
        let values = reader.poll(at: .seconds(1))[0]
        #expect(!values.isAsleep(Self.gpu) && values.value(at: Self.gpu) == 50)
        #expect(io.opens("power/runtime_status") == 0)
    }

    @Test func aThermalZoneOfASuspendedDeviceSleepsToo() {
        let files = TemporaryDirectory()
        let wifi = "devices/pci0000:00/0000:00:1c.0/0000:03:00.0"
        files.write(wifi + "/power/runtime_status", "suspended\n")
        for (n, type) in ["iwlwifi_1", "x86_pkg_temp"].enumerated() {
            files.write("thermal/thermal_zone\(n)/type", type + "\n")
            files.write("thermal/thermal_zone\(n)/temp", "\(45 + 5 * n)000\n")
        }
        files.symlink("thermal/thermal_zone0/device", to: files.path(wifi))
        let io = SysfsFaultIO()
        let reader = SysfsReader(
            configuration: SourceConfiguration(kind: .thermal, interval: .seconds(1), root: files.path("thermal")),
            io: io)
        #expect(reader.discover().map(\.id.rawValue) == ["thermal:iwlwifi_1", "thermal:x86_pkg_temp"])
        let values = reader.poll(at: .seconds(1))[0]
        #expect(values.isAsleep(0) && values.value(at: 1) == 50)
        #expect(io.opens("thermal_zone0/temp") == 0)
    }

    @Test func wakeIsASourceKeyThatDefaultsToFalse() throws {
        let files = TemporaryDirectory()
        files.write("c.json5", "{ sources: [{ type: \"hwmon\", wake: true }, { type: \"thermal\" }] }")
        #expect(try ConfigLoader.load(path: files.path("c.json5")).sources.map(\.wake) == [true, false])
    }

    @Test func aStaleRuleDoesNotFireWhileTheSensorSleepsNorAtItsWaking() {
        let sensor = SensorInfo(id: "hwmon:amdgpu-pci-0100/temp1", quantity: .temperature)
        let list = SensorList(source: "0", sensors: [sensor])
        var engine = RuleEngine(rules: [
            Rule(name: "silent", selector: SensorSelector(), condition: .stale(.seconds(5)))
        ])
        var events: [AlertEvent] = []
        for t in 0...30 {
            var values = SensorValues(time: .seconds(Double(t)), capacity: 1)
            values.appendAsleep()
            engine.process(PollCycle(list: list, readings: values), into: &events)
        }
        #expect(events.isEmpty)
        // Awake again but failing: its stale clock started at its last asleep poll (30 s),
        // not at the last reading before it slept.
        func failing(_ t: Int) -> PollCycle {
            var values = SensorValues(time: .seconds(Double(t)), capacity: 1)
            values.appendFault("EIO")
            return PollCycle(list: list, readings: values)
        }
        for t in 31...34 { engine.process(failing(t), into: &events) }
        #expect(events.isEmpty)
        engine.process(failing(35), into: &events)
        #expect(events.map { "\($0.kind.rawValue) \($0.rule)@\($0.time.seconds)" } == ["firing silent@35.0"])
    }

    @Test func metricsShowASleepingSensorUpAndAsleep() {
        let gpu = SensorInfo(id: "hwmon:amdgpu-pci-0100/temp1", quantity: .temperature)
        let group = MetricsSnapshot.SensorGroup(
            sensors: [gpu], attempted: [true], up: [true], value: [.nan], lastReading: [.nan], asleep: [0])
        let text = PrometheusExposition.render(MetricsSnapshot(version: "1.2", startTime: 0.5, groups: [group]))
        // Up (no read failed), asleep, and no value line: the family ends the file.
        #expect(
            text.hasSuffix(
                """
                sensorwatch_sensor_up{sensor="hwmon:amdgpu-pci-0100/temp1",quantity="temperature"} 1
                # HELP sensorwatch_sensor_asleep 1 while the sensor's device is runtime-suspended and so not read (its last value stands).
                # TYPE sensorwatch_sensor_asleep gauge
                sensorwatch_sensor_asleep{sensor="hwmon:amdgpu-pci-0100/temp1"} 1

                """))
    }
}
