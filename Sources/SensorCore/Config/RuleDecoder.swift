/// Turns the `rules` array of a configuration into ``Rule`` values (SPEC §5).
enum RuleDecoder {
    private static let conditionKeys = ["above", "below", "rise", "fall", "predict", "stale"]
    private static let keys = ["name", "sensor", "quantity"] + conditionKeys
        + ["hysteresis", "for", "clearFor", "repeat", "severity"]

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
        if !object.has("sensor") && !object.has("quantity") {
            node.report("needs \"sensor\" or \"quantity\" (or both) to select sensors")
        }

        let condition = self.condition(object, in: node)
        let holdFor = object["for"].map { $0.duration(positive: false) } ?? .zero
        let clearFor = object["clearFor"].map { $0.duration(positive: false) } ?? .zero
        let repeatEvery = object["repeat"].map { $0.duration(positive: true) }
        let severity = object["severity"].map { $0.choice("severity") as Severity? } ?? .warning

        guard valid, let name, let condition, let holdFor, let clearFor, let severity,
            object.has("sensor") || object.has("quantity")
        else { return nil }
        if let repeatEvery, repeatEvery == nil { return nil }
        return Rule(
            name: name, selector: SensorSelector(sensor: sensor, quantity: quantity), condition: condition,
            holdFor: holdFor, clearFor: clearFor, repeatEvery: repeatEvery ?? nil, severity: severity)
    }

    /// The rule's one condition; every present condition key is still checked, so a rule
    /// with two conditions reports problems in both.
    private static func condition(_ object: ConfigObject, in node: ConfigNode) -> Condition? {
        let present = conditionKeys.filter(object.has)
        let hysteresisNode = object["hysteresis"]
        let hysteresis = hysteresisNode.map { $0.number(atLeastZero: false) } ?? 0
        if let hysteresisNode, !present.isEmpty, !present.contains(where: { ["above", "below", "predict"].contains($0) }) {
            hysteresisNode.report("applies only to above, below and predict")
        }
        var conditions: [Condition?] = []
        for key in present {
            guard let member = object[key] else { continue }
            switch key {
            case "above": conditions.append(member.number().flatMap { t in hysteresis.map { .above(t, hysteresis: $0) } })
            case "below": conditions.append(member.number().flatMap { t in hysteresis.map { .below(t, hysteresis: $0) } })
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
            case "predict": conditions.append(predict(member, hysteresis: hysteresis))
            default: conditions.append(member.duration(positive: true).map { .stale($0) })
            }
        }
        switch present.count {
        case 0:
            node.report("needs one condition: above, below, rise, fall, predict or stale")
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
    private static func predict(_ member: ConfigNode, hysteresis: Double?) -> Condition? {
        guard let object = member.object(keys: ["above", "below", "within", "over"]) else { return nil }
        let sides = [PredictCondition.Direction.above, .below].filter { object.has($0.rawValue) }
        // Each side present is still checked, so `above: "x", below: 3` reports both problems.
        let thresholds = sides.map { object[$0.rawValue]?.number() }
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
        return .predict(PredictCondition(
            direction: sides[0], threshold: threshold, hysteresis: hysteresis, within: within, over: over))
    }
}
