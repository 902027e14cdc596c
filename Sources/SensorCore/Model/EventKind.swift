/// The transition an alert event reports.
public enum EventKind: String, Sendable, Hashable, Codable, CaseIterable {
    case firing
    case resolved
    case `repeat`
}
