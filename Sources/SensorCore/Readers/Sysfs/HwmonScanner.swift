/// Finds hwmon chips and their `tempN_input` / `humidityN_input` attributes.
///
/// - The chip name is `hwmonN/name`; old drivers keep `name` and every attribute in
///   `hwmonN/device/` (libsensors reads there too); a chip with neither is named after its
///   directory (`hwmon4`), so its sensors still get a stable-enough id.
/// - Chips sharing a name are told apart by ``SysfsNames`` (`coretemp`, `coretemp.1`).
/// - Indices may be sparse (nvme: temp1, 2, 3, 9); every `_input` present is a sensor.
/// - Labels come from `tempN_label` / `humidityN_label`; `tempN_fault` is checked per read.
/// - A chip that re-exports thermal zones (``ThermalHwmonMirror``) is kept, each sensor
///   noting the zone it mirrors: a configuration with hwmon alone still sees those zones,
///   and ids do not depend on which other sources are configured.
enum HwmonScanner {
    private struct Found {
        var dir: String
        var attributes: String
        var chip: SysfsNames.Chip
    }

    static func scan(_ configuration: SourceConfiguration, _ io: any SysfsIO) -> [SysfsChannel] {
        let root = configuration.root
        var found: [Found] = []
        for entry in SysfsTree.entries(root) where entry.hasPrefix("hwmon") {
            let dir = root + "/" + entry
            guard SysfsTree.isDirectory(dir) else { continue }
            var attributes = dir
            var name = SysfsTree.text(dir + "/name", io: io)
            // A chip whose name blocks cannot be given its sensors' ids: it is left out
            // until the name answers (named after its directory, its ids would change then).
            if name == nil, io.isBlocked(dir + "/name") || io.isBlocked(dir + "/device/name") { continue }
            if name == nil, let old = SysfsTree.text(dir + "/device/name", io: io) {
                name = old
                attributes = dir + "/device"
            }
            let chip = SysfsNames.Chip(
                name: name ?? entry, devicePath: SysfsTree.realPath(dir + "/device"),
                index: SysfsNames.index(of: entry, after: "hwmon"))
            found.append(Found(dir: dir, attributes: attributes, chip: chip))
        }
        let names = SysfsNames.unique(found.map(\.chip))
        var channels: [SysfsChannel] = []
        for (chip, name) in zip(found, names) {
            let mirror = ThermalHwmonMirror(devicePath: chip.chip.devicePath, chipName: chip.chip.name, io: io)
            channels += sensors(in: chip.attributes, chipName: name, driver: chip.chip.name, mirror: mirror, io: io)
        }
        return channels
    }

    private static func sensors(
        in dir: String, chipName: String, driver: String, mirror: ThermalHwmonMirror?, io: any SysfsIO
    ) -> [SysfsChannel] {
        let files = SysfsTree.entries(dir)
        let present = Set(files)
        var channels: [SysfsChannel] = []
        for file in files where file.hasSuffix("_input") {
            let stem = String(file.dropLast("_input".count))
            let quantity: Quantity
            if stem.hasPrefix("temp"), isIndex(stem.dropFirst(4)) {
                quantity = .temperature
            } else if stem.hasPrefix("humidity"), isIndex(stem.dropFirst(8)) {
                quantity = .humidity
            } else {
                continue
            }
            let label = SysfsTree.text(dir + "/" + stem + "_label", io: io)
            let info = SensorInfo(
                id: SensorID(source: SourceKind.hwmon.idPrefix, name: chipName + "/" + stem),
                label: label ?? "", quantity: quantity)
            var channel = SysfsChannel(info: info, input: dir + "/" + file, decimalExponent: -3)
            if label == nil { channel.blocked = SysfsTree.blocked(dir + "/" + stem + "_label", io: io) }
            channel.mirrors = mirror?.zone(of: stem)
            if present.contains(stem + "_fault") { channel.faultFlag = SysfsFile(path: dir + "/" + stem + "_fault") }
            if driver == "sht3x" || driver == "sts3x" {
                if quantity == .humidity {
                    channel.rejectsErrnoValues = true
                } else if present.contains("humidity" + stem.dropFirst(4) + "_input") {
                    channel.errnoWitness = SysfsFile(path: dir + "/humidity" + stem.dropFirst(4) + "_input")
                }
            }
            channels.append(channel)
        }
        return channels
    }

    private static func isIndex(_ s: Substring) -> Bool {
        !s.isEmpty && s.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
