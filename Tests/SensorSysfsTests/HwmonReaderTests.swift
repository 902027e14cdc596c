#if canImport(Glibc)
import Glibc
#endif
import SensorConfig
import SensorCore
import SensorSysfs
import SensorTestKit
import Testing
import SensorRuntime

@Suite struct HwmonReaderTests {
    static func reader(_ root: String, io: any SysfsIO = PosixSysfsIO()) -> SysfsReader {
        SysfsReader(configuration: SourceConfiguration(kind: .hwmon, interval: .seconds(1), root: root), io: io)
    }

    static func values(_ samples: [Sample]) -> [String: Double?] {
        Dictionary(uniqueKeysWithValues: samples.map { ($0.sensor.rawValue, $0.value) })
    }

    @Test func readsTheNodeExporterFixture() {
        let fixture = TemporaryDirectory.fixture("node_exporter_sys")
        let reader = Self.reader(fixture.path("sys/class/hwmon"))
        let all = reader.discover()
        // Fans and voltages (SPEC §16a) are read too.
        #expect(
            all.filter { $0.quantity != .temperature }.map { "\($0.id) \($0.quantity)" } == [
                "hwmon:applesmc-isa-0300/fan1 fan", "hwmon:applesmc-isa-0300/fan2 fan",
                "hwmon:nct6779-virtual-0/fan2 fan",
                "hwmon:nct6779-virtual-0/in0 voltage", "hwmon:nct6779-virtual-0/in1 voltage",
            ])
        let sensors = all.filter { $0.quantity == .temperature }
        #expect(
            sensors.map(\.id.rawValue) == [
                "hwmon:coretemp-isa-0000/temp1", "hwmon:coretemp-isa-0000/temp2", "hwmon:coretemp-isa-0000/temp3",
                "hwmon:coretemp-isa-0000/temp4", "hwmon:coretemp-isa-0000/temp5",
                "hwmon:coretemp-isa-0001/temp1", "hwmon:coretemp-isa-0001/temp2", "hwmon:coretemp-isa-0001/temp3",
                "hwmon:coretemp-isa-0001/temp4", "hwmon:coretemp-isa-0001/temp5",
                "hwmon:hwmon4/temp1", "hwmon:hwmon4/temp2",
                "hwmon:mt7996_phy0_0-isa-0000/temp1", "hwmon:mt7996_phy0_1-isa-0000/temp1",
                "hwmon:mt7996_phy0_2-isa-0000/temp1",
            ])
        #expect(sensors.first { $0.id == "hwmon:coretemp-isa-0000/temp1" }?.label == "Physical id 0")
        #expect(sensors.first { $0.id == "hwmon:coretemp-isa-0001/temp3" }?.label == "Core 1")
        #expect(sensors.first { $0.id == "hwmon:hwmon4/temp2" }?.label == "foosensor")
        #expect(sensors.first { $0.id == "hwmon:mt7996_phy0_0-isa-0000/temp1" }?.label == "")
        #expect(sensors.allSatisfy { $0.quantity == .temperature })
        let samples = reader.samples(at: .zero)
        #expect(samples.count == all.count)
        #expect(samples.allSatisfy { $0.fault == nil })
        #expect(Self.values(samples)["hwmon:hwmon4/temp1"] == 55)
    }

    @Test func readsAnSht3xHumidityChip() {
        let tree = TemporaryDirectory()
        tree.write([
            "devices/i2c-1/1-0044/hwmon/hwmon2/name": "sht3x\n",
            "devices/i2c-1/1-0044/hwmon/hwmon2/temp1_input": "23450\n",
            "devices/i2c-1/1-0044/hwmon/hwmon2/humidity1_input": "45120\n",
            "devices/i2c-1/1-0044/hwmon/hwmon2/humidity1_max": "80000\n",
        ])
        tree.symlink("devices/i2c-1/1-0044/hwmon/hwmon2/device", to: "../..")
        tree.symlink("class/hwmon/hwmon2", to: "../../devices/i2c-1/1-0044/hwmon/hwmon2")
        let reader = Self.reader(tree.path("class/hwmon"))
        #expect(
            reader.discover() == [
                SensorInfo(id: "hwmon:sht3x-i2c-1-44/humidity1", quantity: .humidity),
                SensorInfo(id: "hwmon:sht3x-i2c-1-44/temp1", quantity: .temperature),
            ])
        #expect(reader.samples(at: .zero).map(\.value) == [45.12, 23.45])
    }

    @Test func aSmallNegativeTemperatureFromAnotherChipIsAValue() {
        let tree = TemporaryDirectory()
        tree.write(["hwmon0/name": "lm75\n", "hwmon0/temp1_input": "-5\n"])
        #expect(Self.reader(tree.root).samples(at: .zero).first?.value == -0.005)
    }

    @Test func sparseIndicesAndLabelsComeFromTheFiles() {
        let tree = TemporaryDirectory()
        tree.write(["hwmon3/name": "nvme\n"])
        for (n, label, value) in [
            (1, "Composite", "37850"), (2, "Sensor 1", "37850"), (3, "Sensor 2", "41850"), (9, "Sensor 8", "40850"),
        ] {
            tree.write([
                "hwmon3/temp\(n)_input": value + "\n", "hwmon3/temp\(n)_label": label + "\n",
                "hwmon3/temp\(n)_min": "-273150\n", "hwmon3/temp\(n)_max": "65261850\n",
            ])
        }
        let reader = Self.reader(tree.root)
        #expect(
            reader.discover().map { "\($0.id)=\($0.label)" } == [
                "hwmon:nvme-virtual-0/temp1=Composite", "hwmon:nvme-virtual-0/temp2=Sensor 1",
                "hwmon:nvme-virtual-0/temp3=Sensor 2", "hwmon:nvme-virtual-0/temp9=Sensor 8",
            ])
        #expect(reader.samples(at: .zero).map(\.value) == [37.85, 37.85, 41.85, 40.85])
    }

    @Test func chipsLmSensorsNamesAlikeAreNumberedByResolvedDevicePath() {
        let tree = TemporaryDirectory()
        // Both are `acpitz-acpi-0` to lm-sensors (an acpi chip's address is always 0); hwmon1
        // sits on the later device path, so it is the `.1` despite its lower index.
        for (hw, dev, temp) in [
            ("hwmon1", "LNXSYSTM:00/LNXTHERM:01", "31000"), ("hwmon5", "LNXSYSTM:00/LNXTHERM:00", "30000"),
        ] {
            tree.write([
                "devices/\(dev)/hwmon/\(hw)/name": "acpitz\n", "devices/\(dev)/hwmon/\(hw)/temp1_input": temp + "\n",
            ])
            tree.symlink("devices/\(dev)/subsystem", to: "../../../bus/acpi")
            tree.symlink("devices/\(dev)/hwmon/\(hw)/device", to: "../..")
            tree.symlink("class/hwmon/\(hw)", to: "../../devices/\(dev)/hwmon/\(hw)")
        }
        let samples = Self.reader(tree.path("class/hwmon")).samples(at: .zero)
        #expect(samples.map(\.sensor) == ["hwmon:acpitz-acpi-0.1/temp1", "hwmon:acpitz-acpi-0/temp1"])
        #expect(samples.map(\.value) == [31, 30])
    }

    @Test func chipsWithOneNameAndNoDeviceAreNumberedByIndex() {
        let tree = TemporaryDirectory()
        tree.write([
            "hwmon10/name": "acpitz\n", "hwmon10/temp1_input": "10000\n",
            "hwmon2/name": "acpitz\n", "hwmon2/temp1_input": "20000\n",
            "hwmon3/name": "acpitz\n", "hwmon3/temp1_input": "30000\n",
        ])
        let samples = Self.reader(tree.root).samples(at: .zero)
        #expect(
            Self.values(samples) == [
                "hwmon:acpitz-virtual-0/temp1": 20, "hwmon:acpitz-virtual-0.1/temp1": 30,
                "hwmon:acpitz-virtual-0.2/temp1": 10,
            ])
    }

    @Test func oldDriversKeepNameAndAttributesUnderDevice() {
        let tree = TemporaryDirectory()
        tree.write([
            "devices/platform/w83627hf.656/name": "w83627hf\n",
            "devices/platform/w83627hf.656/temp1_input": "41000\n",
            "devices/platform/w83627hf.656/temp1_label": "CPU\n",
        ])
        tree.mkdir("devices/platform/w83627hf.656/hwmon/hwmon0")
        tree.symlink("devices/platform/w83627hf.656/hwmon/hwmon0/device", to: "../..")
        tree.symlink("class/hwmon/hwmon0", to: "../../devices/platform/w83627hf.656/hwmon/hwmon0")
        let reader = Self.reader(tree.path("class/hwmon"))
        #expect(
            reader.discover() == [SensorInfo(id: "hwmon:w83627hf-isa-0290/temp1", label: "CPU", quantity: .temperature)]
        )
        #expect(reader.samples(at: .zero).first?.value == 41)
    }

    @Test func aChipWithoutNameIsNamedAfterItsDirectory() {
        let tree = TemporaryDirectory()
        tree.write(["hwmon7/temp1_input": "33000\n"])
        #expect(Self.reader(tree.root).discover().map(\.id) == ["hwmon:hwmon7/temp1"])
    }

    @Test func theFaultFlagAndAbsoluteZeroSentinelsAreFaults() {
        let tree = TemporaryDirectory()
        tree.write([
            "hwmon0/name": "f75303\n", "hwmon0/temp1_input": "45000\n", "hwmon0/temp1_fault": "1\n",
            "hwmon0/temp2_input": "-273150\n", "hwmon0/temp3_input": "44000\n", "hwmon0/temp3_fault": "0\n",
        ])
        let samples = Self.reader(tree.root).samples(at: .zero)
        #expect(
            samples.map { $0.fault ?? "\($0.value!)" } == [
                "sensor reports a fault (temp1_fault = 1)", "out of range: -273.15 °C", "44.0",
            ])
    }

    @Test func aDisabledSensorReadsENODATA() {
        let tree = TemporaryDirectory()
        tree.write(["hwmon0/name": "lm90\n", "hwmon0/temp1_input": "45000\n", "hwmon0/temp1_enable": "0\n"])
        let io = SysfsFaultIO()
        io.failReads("hwmon0/temp1_input", errno: ENODATA)
        #expect(Self.reader(tree.root, io: io).samples(at: .zero).first?.fault == .system(errno: ENODATA))
    }

    @Test func aHotPluggedChipAppearsAndAnUnpluggedOneGoes() {
        let tree = TemporaryDirectory()
        tree.write(["hwmon0/name": "k10temp\n", "hwmon0/temp1_input": "50000\n"])
        let io = SysfsFaultIO()
        let reader = Self.reader(tree.root, io: io)
        #expect(reader.samples(at: .zero).map(\.sensor) == ["hwmon:k10temp-virtual-0/temp1"])
        tree.write(["hwmon1/name": "sht3x\n", "hwmon1/temp1_input": "21000\n", "hwmon1/humidity1_input": "40000\n"])
        #expect(reader.discover().count == 3)
        // Unplugging: the kept descriptor fails with ENODEV and the file is gone.
        tree.remove("hwmon0")
        io.failReads("hwmon0/temp1_input", errno: ENODEV)
        #expect(reader.samples(at: .seconds(1)).first?.fault == .system(errno: ENOENT))
        #expect(reader.discover().map(\.id) == ["hwmon:sht3x-virtual-0/humidity1", "hwmon:sht3x-virtual-0/temp1"])
        #expect(reader.samples(at: .seconds(2)).map(\.value) == [40, 21])
        #expect(io.openCount == 2)
    }
}
