import SensorCore
import SensorRuntime
/// A stretch of time during which one rule's alert on one sensor was firing: from its
/// `firing` event to its `resolved` event, or to the end of the run when it never resolved.
struct FiringSpan: Equatable, Sendable {
    /// The rule's name and position in the configuration.
    var rule: String, ruleIndex: Int
    /// From the firing to the resolved event, in seconds.
    var start: Double, end: Double
    /// Whether the alert was still firing when the run ended.
    var open: Bool

    /// The spans of the events of one sensor (`events` in time order); open spans end at `end`.
    static func spans(of events: [AlertEvent], until end: Double) -> [FiringSpan] {
        var open: [String: FiringSpan] = [:]
        var out: [FiringSpan] = []
        for e in events {
            switch e.kind {
            case .firing:
                open[e.rule] = FiringSpan(
                    rule: e.rule, ruleIndex: e.ruleIndex, start: e.time.seconds, end: end, open: true)
            case .resolved:
                if var span = open.removeValue(forKey: e.rule) {
                    span.end = e.time.seconds
                    span.open = false
                    out.append(span)
                }
            case .repeat:
                break
            }
        }
        out += open.values
        return out.sorted { ($0.ruleIndex, $0.start) < ($1.ruleIndex, $1.start) }
    }
}
