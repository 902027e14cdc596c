import SensorRuntime

/// What a target's delivery keeps across restarts beyond its cursors: an alertmanager
/// target's firing set, given back at the start and handed on after each change.
public struct NotifyTargetMemory {
    /// The firing alerts kept from the last run.
    public var firing: [AlertmanagerAlert]
    /// Keeps a changed firing set; written to `notify.json` with the lane's next cursor.
    public var keep: @DaemonActor ([AlertmanagerAlert]) -> Void
    /// An alertmanager target's silences there: Alertmanager's id by sensorwatch's (SPEC §21).
    public var silences: [String: String]
    /// Keeps a changed map of silences; written to `notify.json` with the lane's next cursor.
    public var keepSilences: @DaemonActor ([String: String]) -> Void

    /// A memory of the given fields; by default no silences, and changes to them are not kept.
    public init(
        firing: [AlertmanagerAlert], keep: @escaping @DaemonActor ([AlertmanagerAlert]) -> Void,
        silences: [String: String] = [:], keepSilences: @escaping @DaemonActor ([String: String]) -> Void = { _ in }
    ) {
        self.firing = firing
        self.keep = keep
        self.silences = silences
        self.keepSilences = keepSilences
    }
}
