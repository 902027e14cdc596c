import SensorRuntime

/// The names SPEC §4 gives the thermal zones of one directory: the zone's `type`
/// (`x86_pkg_temp`), zones of one type told apart by ``SysfsNames`` (`acpitz`, `acpitz.1`, by
/// resolved `device` path, else zone number), `thermal_zoneN` for a zone whose type cannot
/// be read. Zone numbers follow module load order; types do not.
enum ThermalZoneNames {
    /// One zone directory and the name of its sensor.
    struct Zone {
        /// `thermal_zone3`.
        var entry: String
        /// The zone's `type`, nil when unreadable.
        var type: String?
        /// The sensor's name under `thermal:`.
        var name: String
    }

    /// The zones in `dir` in entry order. A zone whose `type` blocks cannot be read either:
    /// it is `thermal_zoneN` until the type answers (its reader shows why it faults).
    static func zones(in dir: String, io: any SysfsIO) -> [Zone] {
        let found = DirectoryListing.entries(dir).compactMap { entry -> (String, String?, SysfsNames.Chip)? in
            let zone = dir + "/" + entry
            guard entry.hasPrefix("thermal_zone"), SysfsTree.isDirectory(zone) else { return nil }
            let type = SysfsTree.text(zone + "/type", io: io)
            let chip = SysfsNames.Chip(
                name: type ?? entry, devicePath: SysfsTree.realPath(zone + "/device"),
                index: SysfsNames.index(of: entry, after: "thermal_zone"))
            return (entry, type, chip)
        }
        return zip(found, SysfsNames.unique(found.map(\.2))).map { zone, name in
            Zone(entry: zone.0, type: zone.1, name: name)
        }
    }

    /// `thermal_zoneN` → the zone's name now, for each zone whose type reads, the names this
    /// project used before SPEC §4 named zones by type (for `check`, SPEC §20).
    static func renamed(in dir: String, io: any SysfsIO) -> [String: String] {
        var renamed: [String: String] = [:]
        for zone in zones(in: dir, io: io) where zone.type != nil { renamed[zone.entry] = zone.name }
        return renamed
    }
}
