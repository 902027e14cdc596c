public import SensorConfig
public import SensorRuntime
import SensorCore
/// Finds the ids of the form this project used before SPEC §4 named devices —
/// `thermal:thermal_zoneN` for a zone that has a readable type, `hwmon:NAME/…` without a bus
/// part — in a configuration's rules and source filters, and the id each means on this
/// machine (SPEC §20: `check` warns, the configuration still loads).
///
/// Such an id matches nothing now: a rule pinned to it would silently never fire.
public enum LegacySensorIDs {
    /// One warning per old id, as `PATH: LOCATION: message` like a configuration error.
    /// The configured hwmon and thermal sources are discovered (names and types only).
    public static func warnings(_ configuration: Configuration, io: any SysfsIO = PosixSysfsIO()) -> [ConfigError] {
        var zones: [String: String] = [:]
        var chips: [String: String] = [:]
        for source in configuration.sources {
            switch source.kind {
            case .thermal: zones.merge(ThermalZoneNames.renamed(in: source.root, io: io)) { first, _ in first }
            case .hwmon: chips.merge(HwmonScanner.renamedChips(root: source.root, io: io)) { first, _ in first }
            default: break
            }
        }
        var patterns: [(String, String)] = []
        for (n, rule) in configuration.rules.enumerated() {
            if let glob = rule.selector.sensor { patterns.append(("rules[\(n)].sensor", glob.pattern)) }
        }
        for (n, source) in configuration.sources.enumerated() {
            for (k, glob) in source.include.enumerated() {
                patterns.append(("sources[\(n)].include[\(k)]", glob.pattern))
            }
            for (k, glob) in source.exclude.enumerated() {
                patterns.append(("sources[\(n)].exclude[\(k)]", glob.pattern))
            }
        }
        return patterns.compactMap { location, pattern in
            guard let meaning = meaning(of: pattern, zones: zones, chips: chips) else { return nil }
            return ConfigError(
                file: configuration.path, location: .keyPath(location),
                message:
                    "warning: \"\(pattern)\" is an id of the form used before ids named devices (see SENSORS in man sensorwatch); "
                    + (meaning.isEmpty ? "no sensor on this machine has it" : "on this machine it is \"\(meaning)\""))
        }
    }

    /// For an old-style `pattern`, the pattern that means the same sensors now ("" when
    /// nothing on this machine had that id); nil for a pattern that is not old-style.
    static func meaning(of pattern: String, zones: [String: String], chips: [String: String]) -> String? {
        if pattern.hasPrefix("thermal:") {
            // A zone without a readable type keeps `thermal_zoneN` (SPEC §4): not old-style.
            return zones[String(pattern.dropFirst("thermal:".count))].map { "thermal:" + $0 }
        }
        guard pattern.hasPrefix("hwmon:"), let slash = pattern.firstIndex(of: "/") else { return nil }
        let chip = String(pattern[pattern.index(pattern.startIndex, offsetBy: "hwmon:".count)..<slash])
        // A bus part has dashes (hwmon names cannot); a glob or `hwmonN` chip is not old-style.
        guard !chip.isEmpty, !chip.contains(where: { "-*?[".contains($0) }),
            !(chip.hasPrefix("hwmon") && chip.dropFirst(5).allSatisfy(\.isNumber))
        else { return nil }
        return chips[chip].map { "hwmon:" + $0 + pattern[slash...] } ?? ""
    }
}
