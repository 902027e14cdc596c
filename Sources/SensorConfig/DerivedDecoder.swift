import SensorCore
import SensorRuntime

/// Turns the top-level `derived` array of a configuration into
/// ``DerivedSensorConfiguration`` values (SPEC §11).
enum DerivedDecoder {
    private static let keys = ["id", "label", "dewpoint", "difference", "maxAge"]
    private static let formulaKeys = ["dewpoint", "difference"]

    /// The valid derived sensors of `node` (an array, or absent for none); problems go to
    /// its diagnostics.
    static func derived(_ node: ConfigNode?) -> [DerivedSensorConfiguration] {
        ConfigNode.uniqueElements(of: node, keyName: "id", key: \.id, decode: derived) { id, first in
            "derived sensor \"\(id)\" is already defined by \(first)"
        }
    }

    private static func derived(_ node: ConfigNode) -> DerivedSensorConfiguration? {
        guard let object = node.object(keys: keys) else { return nil }
        var valid = true
        let name = object.required("id")?.string()
        if let name, name.isEmpty || name.contains(":") || name.contains(where: \.isWhitespace) {
            object["id"]?.report("must be a name without \":\" or spaces (the sensor is \"derived:NAME\")")
            valid = false
        }
        let label = object["label"].map { $0.string() } ?? ""
        let maxAge = object["maxAge"].map { $0.duration(positive: true) } ?? DerivedSensorConfiguration.defaultMaxAge

        let present = formulaKeys.filter(object.has)
        var formula: DerivedFormula?
        switch present.count {
        case 0:
            node.report("needs one formula: dewpoint or difference")
        case 1:
            let member = object[present[0]]!
            if present[0] == "dewpoint" {
                if let inputs = member.object(keys: ["temperature", "humidity"]),
                    let t = input(inputs.required("temperature")), let h = input(inputs.required("humidity"))
                {
                    formula = .dewpoint(temperature: t, humidity: h)
                }
            } else if let inputs = member.object(keys: ["of", "minus"]),
                let of = input(inputs.required("of")), let minus = input(inputs.required("minus"))
            {
                formula = .difference(of: of, minus: minus)
            }
        default:
            node.report(
                "has more than one formula (\(present.joined(separator: ", "))); a derived sensor takes exactly one")
        }
        guard valid, let name, let label, let maxAge, let formula else { return nil }
        return DerivedSensorConfiguration(
            id: SensorID(source: "derived", name: name), label: label, formula: formula, maxAge: maxAge)
    }

    /// An input: a full sensor id of a real or simulated sensor, never a glob or a derived one.
    private static func input(_ node: ConfigNode?) -> SensorID? {
        guard let node, let text = node.string() else { return nil }
        if text.contains(where: { "*?[".contains($0) }) {
            node.report("must be a full sensor id, not a glob: \"\(text)\"")
            return nil
        }
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex, text.index(after: colon) != text.endIndex
        else {
            node.report("must be a full sensor id (SOURCE:NAME, e.g. \"hwmon:sht3x-i2c-1-44/temp1\"): \"\(text)\"")
            return nil
        }
        if text.hasPrefix("derived:") {
            node.report("a derived sensor cannot read another derived sensor (\"\(text)\")")
            return nil
        }
        return SensorID(text)
    }
}
