import SensorConfig
import SensorCore
import SensorRuntime

/// Finds `thermal_zoneN` directories: id `thermal:<type>` (``ThermalZoneNames``), label from
/// `type`, value from `temp` in millidegrees Celsius, limits from the trip points (SPEC §16);
/// not read while its device sleeps, as an hwmon chip (``DevicePower``).
enum ThermalZoneScanner {
    /// `previous`: the last discovery's channels, whose trip points a zone of a sleeping
    /// device keeps (they are the driver's files, not read while it sleeps; SPEC §20).
    static func scan(
        _ configuration: SourceConfiguration, _ io: any SysfsIO, _ previous: [SysfsChannel]
    ) -> [SysfsChannel] {
        let root = configuration.root
        return ThermalZoneNames.zones(in: root, io: io).compactMap { zone -> SysfsChannel? in
            let dir = root + "/" + zone.entry
            let id = SensorID(source: SourceKind.thermal.idPrefix, name: zone.name)
            // An excluded zone's trip points are not read at all (its type names it).
            guard configuration.admits(id) else { return nil }
            // A zone of a device that can sleep (a Wi-Fi card's) sleeps with it (SPEC §20).
            let power = configuration.wake ? [] : DevicePower.statusFiles(device: SysfsTree.realPath(dir + "/device"))
            let asleep = DevicePower.isSuspended(power, io: io)
            let limits =
                asleep
                ? previous.first { $0.input.path == dir + "/temp" }?.info.limits ?? SensorLimits()
                : SysfsLimitFiles.thermal(dir: dir, entries: DirectoryListing.entries(dir), io: io)
            let info = SensorInfo(id: id, label: zone.type ?? "", quantity: .temperature, limits: limits)
            var channel = SysfsChannel(info: info, input: dir + "/temp", decimalExponent: -3)
            if zone.type == nil { channel.blocked = SysfsTree.blocked(dir + "/type", io: io) }
            channel.powerStatus = power
            channel.discoveredAsleep = asleep
            return channel
        }
    }
}
