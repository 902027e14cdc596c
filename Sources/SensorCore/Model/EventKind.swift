/// The transition an alert event reports.
public enum EventKind: String, Sendable, Hashable, CaseIterable {
    case firing
    case resolved
    case `repeat`
}
