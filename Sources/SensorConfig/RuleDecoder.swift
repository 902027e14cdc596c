import SensorCore
import SensorRuntime

/// Turns the `rules` array of a configuration into ``Rule`` values (SPEC §5).
enum RuleDecoder {
    private static let conditionKeys = ["above", "below", "rise", "fall", "predict", "stale", "alarm"]
    private static let keys =
        ["name", "sensor", "quantity"] + conditionKeys
        + ["hysteresis", "for", "clearFor", "repeat", "severity", "summary", "description", "runbook"]

    /// The valid rules of `node` (an array, or absent for none); problems go to its diagnostics.
    static func rules(_ node: ConfigNode?) -> [Rule] {
        ConfigNode.uniqueElements(of: node, keyName: "name", key: \.name, decode: rule) { name, first in
            "duplicate rule name \"\(name)\" (first used by \(first))"
        }
    }

    private static func rule(_ node: ConfigNode) -> Rule? {
        guard let object = node.object(keys: keys) else { return nil }
        var valid = true
        let name = object.required("name")?.string()
        if name == "" {
            object["name"]?.report("must not be empty")
            valid = false
        }

        var sensor: Glob?
        if let sensorNode = object["sensor"], let pattern = sensorNode.string() {
            do {
                sensor = try Glob(pattern)
            } catch {
                sensorNode.report(error.message)
                valid = false
            }
        } else if object.has("sensor") {
            valid = false
        }
        let quantity: Quantity? = object["quantity"].flatMap { $0.choice("quantity") }
        if object.has("quantity") && quantity == nil { valid = false }
        // An `alarm: true` rule may watch every sensor's alarm files (SPEC §16b's `hw-alarm`).
        let selects = object.has("sensor") || object.has("quantity") || object.has("alarm")
        if !selects {
            node.report("needs \"sensor\" or \"quantity\" (or both) to select sensors")
        }

        var limit: RuleLimit?
        let condition = self.condition(object, in: node, limit: &limit)
        let holdFor = object["for"].map { $0.duration(positive: false) } ?? .zero
        let clearFor = object["clearFor"].map { $0.duration(positive: false) } ?? .zero
        let repeatEvery = object["repeat"].map { $0.duration(positive: true) }
        let severity = object["severity"].map { $0.choice("severity") as Severity? } ?? .warning
        guard let annotations = annotations(object) else { return nil }

        guard valid, let name, let condition, let holdFor, let clearFor, let severity, selects else { return nil }
        if let repeatEvery, repeatEvery == nil { return nil }
        return Rule(
            name: name, selector: SensorSelector(sensor: sensor, quantity: quantity), condition: condition,
            holdFor: holdFor, clearFor: clearFor, repeatEvery: repeatEvery ?? nil, severity: severity, limit: limit,
            annotations: annotations)
    }

    /// `summary`, `description` and `runbook` (SPEC §21); nil when one is bad (reported).
    /// They reach a pager's screen, an environment variable and Alertmanager: a summary is
    /// one line, a description may have several, a runbook is a URL (`https://…`,
    /// `file:///…`) with no spaces; none is empty or holds other control characters.
    private static func annotations(_ object: ConfigObject) -> RuleAnnotations? {
        var valid = true
        func text(_ key: String, newlines: Bool) -> String? {
            guard let node = object[key] else { return nil }
            guard let s = node.string() else {
                valid = false
                return nil
            }
            let bad = s.unicodeScalars.first { c in
                (c.value < 0x20 && !(newlines && (c == "\n" || c == "\t"))) || c.value == 0x7F
            }
            if s.isEmpty {
                node.report("must not be empty (leave the key out instead)")
            } else if let bad {
                node.report(
                    "must not contain the control character U+\(JSON5Parser.hex4(bad.value))"
                        + (newlines ? "" : " (one line, no newline)"))
            } else if key == "runbook", let problem = urlProblem(s) {
                node.report(problem)
            } else {
                return s
            }
            valid = false
            return nil
        }
        let annotations = RuleAnnotations(
            summary: text("summary", newlines: false), description: text("description", newlines: true),
            runbook: text("runbook", newlines: false))
        return valid ? annotations : nil
    }

    /// Why `s` is not a URL a person can open, or nil: it needs a scheme (`https:`) and no
    /// spaces.
    private static func urlProblem(_ s: String) -> String? {
        let scheme = s.prefix { $0 != ":" }
        let isScheme =
            scheme.first.map { $0.isASCII && $0.isLetter } == true
            && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
        if scheme.count == s.count || !isScheme {
            return "expected a URL such as \"https://wiki.example/runbooks/cpu-hot\", found \"\(s)\""
        }
        if s.contains(" ") { return "a URL must not contain spaces (write %20)" }
        return nil
    }

    /// The rule's one condition; every present condition key is still checked, so a rule
    /// with two conditions reports problems in both.
    private static func condition(_ object: ConfigObject, in node: ConfigNode, limit: inout RuleLimit?) -> Condition? {
        let present = conditionKeys.filter(object.has)
        let hysteresisNode = object["hysteresis"]
        let hysteresis = hysteresisNode.map { $0.number(atLeastZero: false) } ?? 0
        // A limit rule tells a hysteresis of 0 from none (then the driver's `_hyst` counts).
        let given: Double? = hysteresisNode == nil ? nil : (hysteresis ?? 0)
        if let hysteresisNode, !present.isEmpty,
            !present.contains(where: { ["above", "below", "predict"].contains($0) })
        {
            hysteresisNode.report("applies only to above, below and predict")
        }
        var conditions: [Condition?] = []
        for key in present {
            guard let member = object[key] else { continue }
            switch key {
            case "above", "below":
                let isAbove = key == "above"
                guard let t = threshold(member, above: isAbove, hysteresis: given, limit: &limit), let h = hysteresis
                else {
                    conditions.append(nil)
                    continue
                }
                conditions.append(isAbove ? .above(t, hysteresis: h) : .below(t, hysteresis: h))
            case "rise", "fall":
                guard let window = member.object(keys: ["by", "within"]) else {
                    conditions.append(nil)
                    continue
                }
                let by = window.required("by")?.number(atLeastZero: true)
                let within = window.required("within")?.duration(positive: true)
                if let by, let within {
                    conditions.append(key == "rise" ? .rise(by: by, within: within) : .fall(by: by, within: within))
                } else {
                    conditions.append(nil)
                }
            case "predict": conditions.append(predict(member, hysteresis: hysteresis, given: given, limit: &limit))
            case "alarm":
                // The chip's own alarm files (SPEC §16b); `false` would be a rule that never fires.
                guard let on = member.bool() else {
                    conditions.append(nil)
                    continue
                }
                if !on { member.report("must be true (leave the rule out to not watch the alarms)") }
                conditions.append(on ? .alarm : nil)
            default: conditions.append(member.duration(positive: true).map { .stale($0) })
            }
        }
        switch present.count {
        case 0:
            node.report("needs one condition: above, below, rise, fall, predict, stale or alarm")
            return nil
        case 1:
            return conditions[0]
        default:
            node.report("has more than one condition (\(present.joined(separator: ", "))); a rule takes exactly one")
            return nil
        }
    }

    /// `predict: { above: T | below: T, within: H, over: W }` (SPEC §10); `hysteresis` is the
    /// rule's (nil when it was invalid, already reported).
    private static func predict(
        _ member: ConfigNode, hysteresis: Double?, given: Double?, limit: inout RuleLimit?
    ) -> Condition? {
        guard let object = member.object(keys: ["above", "below", "within", "over"]) else { return nil }
        let sides = [PredictCondition.Direction.above, .below].filter { object.has($0.rawValue) }
        // Each side present is still checked, so `above: "x", below: 3` reports both problems.
        let thresholds = sides.map { side in
            object[side.rawValue].flatMap { threshold($0, above: side == .above, hysteresis: given, limit: &limit) }
        }
        let within = object.required("within")?.duration(positive: true)
        let over = object.required("over")?.duration(positive: true)
        switch sides.count {
        case 0:
            member.report("needs \"above\" or \"below\": the threshold the prediction is compared with")
            return nil
        case 1:
            break
        default:
            member.report("has both \"above\" and \"below\"; a prediction takes exactly one")
            return nil
        }
        guard let threshold = thresholds[0], let within, let over, let hysteresis else { return nil }
        return .predict(
            PredictCondition(
                direction: sides[0], threshold: threshold, hysteresis: hysteresis, within: within, over: over))
    }

    /// A threshold: a number, a limit's name (`"crit"`) or `{ limit, margin, otherwise }`
    /// (SPEC §16), `above` taking an upper limit and `below` a lower one. A limit sets
    /// `limit`, and the threshold returned is `otherwise` (0 without one: a sensor without
    /// the limit is then not selected, and the number is never used).
    private static func threshold(
        _ node: ConfigNode, above: Bool, hysteresis: Double?, limit: inout RuleLimit?
    ) -> Double? {
        let name: String?
        var nameNode = node
        var margin = 0.0
        var otherwise: Double?
        switch node.value {
        case .string(let s):
            name = s
        case .object:
            guard let object = node.object(keys: ["limit", "margin", "otherwise"]) else { return nil }
            name = object.required("limit")?.string()
            nameNode = object["limit"] ?? node
            if let m = object["margin"] {
                guard let v = m.number(atLeastZero: false) else { return nil }
                margin = v
            }
            if let o = object["otherwise"] {
                guard let v = o.number() else { return nil }
                otherwise = v
            }
        default:
            return node.number()
        }
        guard let name else { return nil }
        let names = above ? SensorLimits.upperNames : SensorLimits.lowerNames
        guard names.contains(name) else {
            let other = (above ? SensorLimits.lowerNames : SensorLimits.upperNames).contains(name)
            nameNode.report(
                other
                    ? "\"\(name)\" is a limit \(above ? "below" : "above") the values; \(above ? "below" : "above") takes it"
                    : "unknown limit \"\(name)\" (expected a number, or \(list(names)))")
            return nil
        }
        limit = RuleLimit(name: name, margin: margin, otherwise: otherwise, hysteresis: hysteresis)
        return otherwise ?? 0
    }

    /// `a, b or c`.
    private static func list(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}
