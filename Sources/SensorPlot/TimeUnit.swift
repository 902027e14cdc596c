/// A unit a time-axis tick is labelled in: the unit of the tick step (a 15-minute step
/// labels in minutes, a 6-hour step in hours).
enum TimeUnit: String, CaseIterable, Sendable {
    case second = "s"
    case minute = "min"
    case hour = "h"
    case day = "d"

    /// Seconds in one of this unit.
    var seconds: Double {
        switch self {
        case .second: return 1
        case .minute: return 60
        case .hour: return 3600
        case .day: return 86400
        }
    }

    /// The unit of a step: the largest unit the step is a whole multiple of (a sub-second
    /// step is in seconds).
    init(step: Double) {
        self = Self.allCases.reversed().first { step >= $0.seconds && Self.isMultiple(step, of: $0.seconds) } ?? .second
    }

    private static func isMultiple(_ value: Double, of unit: Double) -> Bool {
        let q = value / unit
        return abs(q - q.rounded()) < 1e-9
    }
}
