/// Finds `thermal_zoneN` directories: id `thermal:thermal_zoneN`, label from `type`,
/// value from `temp` in millidegrees Celsius.
enum ThermalZoneScanner {
    static func scan(_ configuration: SourceConfiguration, _ io: any SysfsIO) -> [SysfsChannel] {
        let root = configuration.root
        return SysfsTree.entries(root).compactMap { entry -> SysfsChannel? in
            let dir = root + "/" + entry
            guard entry.hasPrefix("thermal_zone"), SysfsTree.isDirectory(dir) else { return nil }
            let label = SysfsTree.text(dir + "/type", io: io)
            let info = SensorInfo(
                id: SensorID(source: SourceKind.thermal.idPrefix, name: entry), label: label ?? "", quantity: .temperature)
            var channel = SysfsChannel(info: info, input: dir + "/temp", decimalExponent: -3)
            if label == nil { channel.blocked = SysfsTree.blocked(dir + "/type", io: io) }
            return channel
        }
    }
}
