import SensorSysfs
import SensorTestKit
import Testing
import SensorRuntime
import SensorCore
/// hwmon chips are named as lm-sensors (libsensors 3.6) names them (SPEC §4), thermal zones
/// by their type, IIO devices by name, so ids follow devices, not the kernel's numbering.
@Suite struct HwmonChipNameTests {
    /// A device directory under `devices/`, on `subsystem` (a link as sysfs has; nil: none).
    static func device(_ tree: TemporaryDirectory, _ path: String, subsystem: String?, device: String? = nil) {
        tree.mkdir("devices/" + path)
        if let subsystem { tree.symlink("devices/" + path + "/subsystem", to: "/sys/bus/" + subsystem) }
        if let device { tree.symlink("devices/" + path + "/device", to: tree.path("devices/" + device)) }
    }

    /// An hwmon chip `name` under the device at `parent` (nil: a virtual chip, no `device`).
    static func chip(
        _ tree: TemporaryDirectory, _ entry: String, _ name: String, under parent: String?, temp: String = "40000"
    ) {
        let dir = (parent.map { "devices/" + $0 } ?? "devices/virtual") + "/hwmon/" + entry
        tree.write([dir + "/name": name + "\n", dir + "/temp1_input": temp + "\n"])
        if let parent { tree.symlink(dir + "/device", to: tree.path("devices/" + parent)) }
        tree.symlink("class/hwmon/" + entry, to: tree.path(dir))
    }

    static func ids(_ tree: TemporaryDirectory) -> [String] {
        HwmonReaderTests.reader(tree.path("class/hwmon")).discover().map(\.id.rawValue)
    }

    static let pci = "pci0000:00/0000:00:1d.0/0000:01:00.0"

    /// One chip of each bus type libsensors knows, and the name `sensors` prints for it.
    static let buses: [(String, String?, String, String)] = [
        ("platform/coretemp.0", "platform", "coretemp", "coretemp-isa-0000"),
        ("platform/nct6775.656", "platform", "nct6798", "nct6798-isa-0290"),
        ("platform/asus-nb-wmi", "platform", "asus", "asus-isa-0000"),
        ("platform/applesmc.768", nil, "applesmc", "applesmc-isa-0300"),
        (pci, "pci", "amdgpu", "amdgpu-pci-0100"),
        ("pci0001:40/0001:40:01.3/0001:45:00.1", "pci", "i350bb", "i350bb-pci-14501"),
        ("pci0000:00/0000:00:1f.4/i2c-1/1-0048", "i2c", "lm75", "lm75-i2c-1-48"),
        ("pci0000:00/0000:00:1f.4/i2c-12/12-004c", "i2c", "lm90", "lm90-i2c-12-4c"),
        ("platform/i2c-9191/9191-0290", "i2c", "w83627hf", "w83627hf-isa-0290"),
        ("LNXSYSTM:00/LNXTHERM:00", "acpi", "acpitz", "acpitz-acpi-0"),
        ("pci0000:00/usb1/1-4/1-4:1.0/0003:1B1C:1C05.0001", "hid", "corsairpsu", "corsairpsu-hid-3-1"),
        ("pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0", "scsi", "drivetemp", "drivetemp-scsi-0-0"),
        ("pci0000:00/0000:00:17.0/ata3/host2/target2:0:1/2:0:1:0", "scsi", "drivetemp", "drivetemp-scsi-2-10"),
        ("platform/stmmac-0/mdio_bus/stmmac-0/stmmac-0:01", "mdio_bus", "marvell", "marvell-mdio-1"),
        ("platform/spi0/spi_master/spi0/spi0.1", "spi", "max31722", "max31722-spi-0-1"),
        ("platform/soc/serial0/serdev", "serial", "weird", "weird-virtual-0"),
    ]

    @Test(arguments: buses)
    func eachBusTypeIsNamedAsLmSensorsNamesIt(path: String, subsystem: String?, name: String, expected: String) {
        let tree = TemporaryDirectory()
        Self.device(tree, path, subsystem: subsystem)
        Self.chip(tree, "hwmon3", name, under: path)
        #expect(Self.ids(tree) == ["hwmon:\(expected)/temp1"])
    }

    @Test func aChipWithoutADeviceIsVirtual() {
        let tree = TemporaryDirectory()
        Self.chip(tree, "hwmon0", "iwlwifi_1", under: nil)
        #expect(Self.ids(tree) == ["hwmon:iwlwifi_1-virtual-0/temp1"])
    }

    @Test func aDeviceOnNoBusHandsOverToItsOwnDevice() {
        let tree = TemporaryDirectory()
        // nvme: hwmon → nvme0 (class nvme) → its PCI function, as libsensors walks it.
        Self.device(tree, Self.pci, subsystem: "pci")
        Self.device(tree, Self.pci + "/nvme/nvme0", subsystem: "nvme", device: Self.pci)
        Self.chip(tree, "hwmon1", "nvme", under: Self.pci + "/nvme/nvme0")
        // A thermal zone mirrored through hwmon: zone (class thermal) → its ACPI device.
        Self.device(tree, "LNXSYSTM:00/LNXTHERM:00", subsystem: "acpi")
        Self.device(tree, "virtual/thermal/thermal_zone0", subsystem: "thermal", device: "LNXSYSTM:00/LNXTHERM:00")
        Self.chip(tree, "hwmon2", "acpitz", under: "virtual/thermal/thermal_zone0")
        // A zone without a device (iwlwifi's): virtual.
        Self.device(tree, "virtual/thermal/thermal_zone1", subsystem: "thermal")
        Self.chip(tree, "hwmon3", "iwlwifi_1", under: "virtual/thermal/thermal_zone1")
        #expect(
            Self.ids(tree) == [
                "hwmon:acpitz-acpi-0/temp1", "hwmon:iwlwifi_1-virtual-0/temp1", "hwmon:nvme-pci-0100/temp1",
            ])
    }

    @Test func aDeviceLinkThatLoopsEndsVirtualInsteadOfWedging() {
        let tree = TemporaryDirectory()
        Self.device(tree, "virtual/a", subsystem: "loop")
        tree.symlink("devices/virtual/a/device", to: ".")
        Self.chip(tree, "hwmon0", "odd", under: "virtual/a")
        #expect(Self.ids(tree) == ["hwmon:odd-virtual-0/temp1"])
    }

    @Test(arguments: ["x-ffffffffffffffff", "99999999999-1", "ffff:ffff:ffff.ffff", "-1--1"])
    func hostileDeviceNamesGiveANameNotACrash(dev: String) {
        let tree = TemporaryDirectory()
        Self.device(tree, "pci0000:00/" + dev, subsystem: nil)
        Self.chip(tree, "hwmon0", "chip", under: "pci0000:00/" + dev)
        #expect(Self.ids(tree).count == 1)
    }

    @Test func anI2cBusBehindAnIsaBridgeIsIsa() {
        let tree = TemporaryDirectory()
        tree.write("class/i2c-adapter/i2c-0/device/name", "ISA main adapter\n")
        Self.device(tree, "platform/i2c-0/0-0290", subsystem: "i2c")
        Self.chip(tree, "hwmon0", "w83781d", under: "platform/i2c-0/0-0290")
        #expect(Self.ids(tree) == ["hwmon:w83781d-isa-0290/temp1"])
    }

    /// Two NVMe drives, as `hwmonN` numbered at one boot.
    static func drives(_ tree: TemporaryDirectory, _ drives: [(entry: String, bus: String)]) {
        for (entry, bus) in drives {
            let pci = "pci0000:00/0000:00:1d.0/0000:\(bus):00.0"
            Self.device(tree, pci, subsystem: "pci")
            Self.device(tree, pci + "/nvme/nvme" + bus, subsystem: "nvme", device: pci)
            Self.chip(tree, entry, "nvme", under: pci + "/nvme/nvme" + bus, temp: bus + "000")
        }
        Self.device(tree, "platform/coretemp.0", subsystem: "platform")
        Self.chip(tree, "hwmon7", "coretemp", under: "platform/coretemp.0")
    }

    static func values(_ tree: TemporaryDirectory) -> [String: Double?] {
        HwmonReaderTests.values(HwmonReaderTests.reader(tree.path("class/hwmon")).samples(at: .zero))
    }

    @Test func renumberedChipsKeepTheirIds() {
        let (a, b) = (TemporaryDirectory(), TemporaryDirectory())
        Self.drives(a, [("hwmon1", "02"), ("hwmon2", "03")])
        Self.drives(b, [("hwmon4", "03"), ("hwmon0", "02")])
        #expect(
            Self.values(a) == [
                "hwmon:nvme-pci-0200/temp1": 2, "hwmon:nvme-pci-0300/temp1": 3, "hwmon:coretemp-isa-0000/temp1": 40,
            ])
        #expect(Self.values(b) == Self.values(a))
    }

    @Test func anAddedOrRemovedDriveRenamesNoOther() {
        let (two, three, one) = (TemporaryDirectory(), TemporaryDirectory(), TemporaryDirectory())
        Self.drives(two, [("hwmon1", "02"), ("hwmon2", "03")])
        // A drive at a lower PCI address, registered first: the others' numbers all move.
        Self.drives(three, [("hwmon1", "01"), ("hwmon2", "02"), ("hwmon3", "03")])
        Self.drives(one, [("hwmon1", "03")])
        let before = Self.values(two)
        let after = Self.values(three)
        #expect(after.filter { before[$0.key] != nil } == before)
        #expect(after["hwmon:nvme-pci-0100/temp1"] == 1)
        #expect(Self.values(one) == before.filter { $0.key != "hwmon:nvme-pci-0200/temp1" })
    }
}
