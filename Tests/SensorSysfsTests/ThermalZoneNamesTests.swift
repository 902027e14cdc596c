import SensorSysfs
import SensorTestKit
import Testing
import SensorRuntime
import SensorCore
/// Thermal zones are named by their `type` and IIO devices by their `name` (SPEC §4): the
/// zone and device numbers the kernel hands out at boot do not show in ids.
@Suite struct ThermalZoneNamesTests {
    /// Zones as `(entry, type, ACPI device or nil, millidegrees)`; nil type: no `type` file.
    static func zones(_ zones: [(String, String?, String?, String)]) -> TemporaryDirectory {
        let tree = TemporaryDirectory()
        for (entry, type, device, temp) in zones {
            let dir = "devices/virtual/thermal/" + entry
            tree.write(dir + "/temp", temp + "\n")
            if let type { tree.write(dir + "/type", type + "\n") }
            if let device {
                tree.mkdir("devices/LNXSYSTM:00/" + device)
                tree.symlink(dir + "/device", to: "../../../LNXSYSTM:00/" + device)
            }
            tree.symlink("class/thermal/" + entry, to: "../../" + dir)
        }
        return tree
    }

    static func values(_ tree: TemporaryDirectory) throws -> [String: Double?] {
        let reader = try ThermalZoneReaderTests.reader(tree.path("class/thermal"))
        return Dictionary(uniqueKeysWithValues: reader.samples(at: .zero).map { ($0.sensor.rawValue, $0.value) })
    }

    @Test func zonesAreNamedByTypeAndOneTypeIsNumberedByDevicePath() throws {
        let tree = Self.zones([
            ("thermal_zone0", "acpitz", "LNXTHERM:01", "31000"), ("thermal_zone1", "x86_pkg_temp", nil, "45000"),
            ("thermal_zone2", "acpitz", "LNXTHERM:00", "30000"),
        ])
        #expect(try Self.values(tree) == ["thermal:acpitz": 30, "thermal:acpitz.1": 31, "thermal:x86_pkg_temp": 45])
    }

    @Test func zonesOfOneTypeWithoutDevicesAreNumberedByZoneNumber() throws {
        let tree = Self.zones([
            ("thermal_zone10", "iwlwifi_1", nil, "40000"), ("thermal_zone2", "iwlwifi_1", nil, "38000"),
        ])
        #expect(try Self.values(tree) == ["thermal:iwlwifi_1": 38, "thermal:iwlwifi_1.1": 40])
    }

    @Test func aZoneWithoutATypeKeepsItsNumber() throws {
        let tree = Self.zones([("thermal_zone4", nil, nil, "40000"), ("thermal_zone5", "acpitz", nil, "41000")])
        #expect(try Self.values(tree) == ["thermal:thermal_zone4": 40, "thermal:acpitz": 41])
    }

    @Test func renumberedZonesKeepTheirIds() throws {
        let boot1 = Self.zones([
            ("thermal_zone0", "acpitz", "LNXTHERM:00", "30000"), ("thermal_zone1", "acpitz", "LNXTHERM:01", "31000"),
            ("thermal_zone2", "x86_pkg_temp", nil, "45000"), ("thermal_zone3", "iwlwifi_1", nil, "38000"),
        ])
        let boot2 = Self.zones([
            ("thermal_zone0", "iwlwifi_1", nil, "38000"), ("thermal_zone1", "x86_pkg_temp", nil, "45000"),
            ("thermal_zone2", "acpitz", "LNXTHERM:01", "31000"), ("thermal_zone3", "acpitz", "LNXTHERM:00", "30000"),
        ])
        #expect(try Self.values(boot2) == Self.values(boot1))
        // The radio's zone going renames no other.
        boot2.remove("class/thermal/thermal_zone0")
        #expect(try Self.values(boot2) == Self.values(boot1).filter { $0.key != "thermal:iwlwifi_1" })
    }

    @Test func iioDevicesOfOneNameAreNumberedByTheDeviceTheyHangUnder() {
        func tree(_ devices: [(String, String, String)]) -> [String: Double?] {
            let tree = TemporaryDirectory()
            for (entry, parent, temp) in devices {
                tree.write([
                    "devices/i2c-1/\(parent)/\(entry)/name": "bme280\n",
                    "devices/i2c-1/\(parent)/\(entry)/in_temp_input": temp + "\n",
                ])
                tree.symlink("bus/iio/devices/" + entry, to: "../../../devices/i2c-1/\(parent)/\(entry)")
            }
            let reader = IIOReaderTests.reader(tree.path("bus/iio/devices"))
            return Dictionary(uniqueKeysWithValues: reader.samples(at: .zero).map { ($0.sensor.rawValue, $0.value) })
        }
        let boot1 = tree([("iio:device0", "1-0076", "21000"), ("iio:device1", "1-0077", "22000")])
        let boot2 = tree([("iio:device10", "1-0077", "22000"), ("iio:device9", "1-0076", "21000")])
        #expect(boot1 == ["iio:bme280/temp": 21, "iio:bme280.1/temp": 22])
        #expect(boot2 == boot1)
    }
}
