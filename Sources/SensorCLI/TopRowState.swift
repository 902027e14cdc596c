/// What a row of `top` says of its sensor: the worst of its alerts, else its health.
enum TopRowState: Sendable, Hashable {
    case ok
    /// No value read yet (a snapshot before the first poll).
    case waiting
    case asleep
    case fault(String)
    case pending(rule: String)
    case firing(rule: String, severity: String)
    case silenced(rule: String, until: Double)

    /// Whether it fires or pends (`f` shows only these).
    var isAlert: Bool {
        switch self {
        case .pending, .firing, .silenced: return true
        default: return false
        }
    }
}
