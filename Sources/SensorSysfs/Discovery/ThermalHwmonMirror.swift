import SensorConfig
import SensorCore

/// Recognizes an hwmon chip that is a thermal zone exported again by the kernel's
/// thermal_hwmon (`CONFIG_THERMAL_HWMON`), and which zone each of its temperatures is.
///
/// thermal_hwmon gives all zones of one `type` a single hwmon device named after the type
/// (`-` → `_`), parented to the first such zone (so `hwmonN/device` resolves to
/// `…/thermal_zoneN`), with `tempK_input` for the K-th zone of that type to register.
/// Registration follows zone numbers, so tempK is taken to be the K-th zone of the type in
/// number order; temp1 is the zone the device link names.
struct ThermalHwmonMirror {
    /// The names under `thermal:` (``ThermalZoneNames``) of the zones of the chip's type,
    /// temp1's first.
    private let zones: [String]

    /// The mirror behind the chip whose `device` resolves to `devicePath` and whose name is
    /// `chipName`; nil for any other chip.
    init?(devicePath: String?, chipName: String, io: any SysfsIO) {
        guard let devicePath, let slash = devicePath.lastIndex(of: "/") else { return nil }
        let first = String(devicePath[devicePath.index(after: slash)...])
        let parent = String(devicePath[..<slash])
        guard first.hasPrefix("thermal_zone"),
            let type = SysfsTree.text(devicePath + "/type", io: io), Self.hwmonName(type) == chipName
        else { return nil }
        let all = ThermalZoneNames.zones(in: parent, io: io)
        guard let head = all.first(where: { $0.entry == first }) else { return nil }
        let sameType =
            all
            .filter { $0.entry != first && $0.type.map(Self.hwmonName) == chipName }
            .sorted {
                SysfsNames.index(of: $0.entry, after: "thermal_zone")
                    < SysfsNames.index(of: $1.entry, after: "thermal_zone")
            }
        zones = ([head] + sameType).map(\.name)
    }

    /// The id the thermal source gives the zone behind `tempK_input` (`stem` = `tempK`).
    func zone(of stem: String) -> SensorID? {
        guard stem.hasPrefix("temp"), let k = Int(stem.dropFirst(4)), k >= 1, k <= zones.count else { return nil }
        return SensorID(source: SourceKind.thermal.idPrefix, name: zones[k - 1])
    }

    /// The hwmon name thermal_hwmon gives a zone type.
    private static func hwmonName(_ type: String) -> String {
        String(type.map { $0 == "-" ? "_" : $0 })
    }
}
