import SensorRuntime

/// Rules that select no sensor of this machine, and why: a typo in a `sensor` glob, a
/// `quantity` no sensor has, a limit no selected sensor declares.
///
/// Such a rule is not an error (a glob for a device that is unplugged now is fine), but it
/// never fires, silently: `check` prints a warning for it and `run` logs one at start and
/// after each rediscovery that leaves it still without a sensor.
public enum RuleSelection {
    /// One rule that selects nothing.
    public struct Finding: Hashable, Sendable {
        /// The rule's position in the configuration.
        public var index: Int
        /// The rule's name.
        public var rule: String
        /// Why it selects nothing, for a person: `sensor "sim:cpuu" matches no sensor (did
        /// you mean "sim:cpu"?)`.
        public var reason: String

        /// The whole warning: `rule "cpu-typo" selects no sensor of this machine: …`.
        public var message: String { "rule \"\(rule)\" selects no sensor of this machine: " + reason }
    }

    /// The rules of `rules` that select none of `sensors`, in rule order.
    public static func unselected(_ rules: [Rule], sensors: [SensorInfo]) -> [Finding] {
        rules.enumerated().compactMap { i, rule in
            guard !sensors.contains(where: { rule.selector.matches($0) && rule.resolved(for: $0) != nil }) else {
                return nil
            }
            return Finding(index: i, rule: rule.name, reason: reason(rule, sensors))
        }
    }

    /// Why `rule` selects none of `sensors` (it is known to select none).
    private static func reason(_ rule: Rule, _ sensors: [SensorInfo]) -> String {
        let ids = sensors.map(\.id.rawValue)
        if let glob = rule.selector.sensor, !sensors.contains(where: { glob.matches($0.id.rawValue) }) {
            let near = NearestNames.nearest(to: glob.pattern, in: ids, count: 3)
            let hint =
                near.isEmpty
                ? " (no id is close to it; `sensorwatch sensors` lists them)"
                : " (did you mean " + near.map { "\"\($0)\"" }.joined(separator: " or ") + "?)"
            return "sensor \"\(glob.pattern)\" matches no sensor id" + hint
        }
        let among = rule.selector.sensor.map { " among those \"\($0.pattern)\" matches" } ?? ""
        if let quantity = rule.selector.quantity, !sensors.contains(where: { rule.selector.matches($0) }) {
            return "there is no \(quantity.rawValue) sensor" + among
        }
        let limit = rule.limit?.name ?? ""
        return "no sensor it matches has the limit \"\(limit)\", and the rule has no `otherwise`"
    }
}
