/// The `<object>` level of the topics (SPEC §24): a sensor id, or `<rule>__<sensor id>` for
/// an alert, with every character outside `[A-Za-z0-9_-]` as `_`, made unique with `_2`,
/// `_3`, … in the order the keys are first seen.
///
/// A key keeps its name for the bridge's life, also after its sensor went (a sensor that
/// comes back has the same topics, and no other key takes them meanwhile). Sensors and
/// alerts share one table, so no two of them have the same `unique_id` in Home Assistant.
public struct MQTTObjectNames: Sendable {
    private var byKey: [String: String] = [:]
    private var taken: Set<String> = []

    /// An empty table.
    public init() {}

    /// `text` with every character outside `[A-Za-z0-9_-]` as `_` (one `_` per character);
    /// empty text is `_`.
    public static func safe(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text {
            if c.isASCII, let a = c.asciiValue,
                (a >= 0x30 && a <= 0x39) || (a >= 0x41 && a <= 0x5A) || (a >= 0x61 && a <= 0x7A) || a == 0x5F
                    || a == 0x2D
            {
                out.append(c)
            } else {
                out.append("_")
            }
        }
        return out.isEmpty ? "_" : out
    }

    /// The key of a (rule, sensor) alert.
    public static func alertKey(rule: String, sensor: String) -> String { rule + "__" + sensor }

    /// The name of `key`: the one it already has, else its safe form, suffixed until unique.
    public mutating func name(for key: String) -> String {
        if let name = byKey[key] { return name }
        let base = Self.safe(key)
        var name = base
        var n = 2
        while taken.contains(name) {
            name = base + "_\(n)"
            n += 1
        }
        byKey[key] = name
        taken.insert(name)
        return name
    }
}
