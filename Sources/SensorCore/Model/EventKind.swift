/// The transition an alert event reports.
public enum EventKind: String, Sendable, Hashable, Codable {
    case firing
    case resolved
    case `repeat`
}
