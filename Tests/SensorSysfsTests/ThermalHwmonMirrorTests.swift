import SensorConfig
import SensorSysfs
import SensorTestKit
import Testing
import SensorCore
import SensorRuntime
/// Thermal zones the kernel also exports through hwmon stay under both ids, and the hwmon
/// reader says which zone each of them is (README: "Thermal zones seen twice").
@Suite struct ThermalHwmonMirrorTests {
    static func hwmon(_ root: String) -> SysfsReader {
        SysfsReader(configuration: SourceConfiguration(kind: .hwmon, interval: .seconds(1), root: root))
    }

    @Test func eachMirroredTemperatureNamesItsZone() {
        let tree = TemporaryDirectory.thermalHwmonMirrors()
        let reader = Self.hwmon(tree.path("class/hwmon"))
        #expect(
            reader.discover().map(\.id) == [
                "hwmon:acpitz-acpi-0/temp1", "hwmon:acpitz-acpi-0/temp2", "hwmon:coretemp-isa-0000/temp1",
                "hwmon:cpu_thermal-virtual-0/temp1",
            ])
        #expect(
            reader.thermalMirrors() == [
                "hwmon:acpitz-acpi-0/temp1": "thermal:acpitz",
                "hwmon:acpitz-acpi-0/temp2": "thermal:acpitz.1",
                "hwmon:cpu_thermal-virtual-0/temp1": "thermal:cpu-thermal",
            ])
    }

    @Test func theMirrorReadsWhatTheZoneReads() throws {
        let tree = TemporaryDirectory.thermalHwmonMirrors()
        let hwmon = Self.hwmon(tree.path("class/hwmon"))
        let thermal = try ThermalZoneReaderTests.reader(tree.path("class/thermal"))
        _ = thermal.discover()
        let zones = Dictionary(uniqueKeysWithValues: thermal.samples(at: .zero).map { ($0.sensor, $0.value) })
        _ = hwmon.discover()
        for sample in hwmon.samples(at: .zero) {
            guard let zone = hwmon.thermalMirrors()[sample.sensor] else { continue }
            #expect(zones[zone] == sample.value, "\(sample.sensor) is \(zone)")
        }
    }

    @Test func aChipNamedLikeAZoneButNotUnderOneIsNoMirror() {
        let tree = TemporaryDirectory()
        tree.write([
            "devices/virtual/thermal/thermal_zone0/type": "acpitz\n",
            "devices/platform/acpitz.0/hwmon/hwmon0/name": "acpitz\n",
            "devices/platform/acpitz.0/hwmon/hwmon0/temp1_input": "30000\n",
        ])
        tree.symlink("devices/platform/acpitz.0/hwmon/hwmon0/device", to: "../..")
        tree.symlink("class/hwmon/hwmon0", to: "../../devices/platform/acpitz.0/hwmon/hwmon0")
        let reader = Self.hwmon(tree.path("class/hwmon"))
        #expect(reader.discover().count == 1)
        #expect(reader.thermalMirrors().isEmpty)
    }
}
