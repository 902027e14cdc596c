/// Whether a silence entry counts (SPEC §17's trust, applied to §21): any local user can
/// write an entry with the silence fields, so only its trusted fields, which journald sets,
/// say whether the daemon's side wrote it.
///
/// Every reader of silences (`notify`, `silence list`, `history`, `status`) asks this one
/// function, so the project's journal trust check can take its place in one spot.
public enum SilenceTrust {
    /// The `_UID`s whose entries count when the configuration names none: root.
    public static let defaultUIDs: Set<String> = ["0"]
    /// The `_SYSTEMD_UNIT`s whose entries count when the configuration names none.
    public static let defaultUnits: Set<String> = ["sensorwatch.service", "sensorwatch-notify.service"]

    /// Whether an entry with these trusted fields (nil where absent) counts.
    public static func accepts(uid: String?, unit: String?) -> Bool {
        if let uid, defaultUIDs.contains(uid) { return true }
        if let unit, defaultUnits.contains(unit) { return true }
        return false
    }
}
