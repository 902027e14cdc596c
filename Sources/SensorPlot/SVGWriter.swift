import SensorRuntime

/// Builds an SVG document as text: elements with escaped attributes and text.
///
/// Every string that reaches the document goes through ``escape(_:)``, so a rule or sensor
/// name holding `<`, `&` or `"` (or a control character, which XML 1.0 forbids) still yields
/// well-formed XML. Coordinates print with one decimal: a tenth of a pixel is below what any
/// renderer shows, and it keeps the file small.
package struct SVGWriter {
    /// The document so far.
    private(set) var text = ""

    /// An empty element: `<name a="v"/>`.
    package mutating func element(_ name: String, _ attributes: KeyValuePairs<String, String>) {
        text += "<" + name + Self.attributes(attributes) + "/>\n"
    }

    /// An element holding escaped text: `<name a="v">text</name>`.
    package mutating func element(_ name: String, _ attributes: KeyValuePairs<String, String>, text content: String) {
        text += "<" + name + Self.attributes(attributes) + ">" + Self.escape(content) + "</" + name + ">\n"
    }

    /// An element with a tooltip (`<title>`), the way SVG viewers show hover text.
    package mutating func element(
        _ name: String, _ attributes: KeyValuePairs<String, String>, tooltip: String
    ) {
        text +=
            "<" + name + Self.attributes(attributes) + "><title>" + Self.escape(tooltip) + "</title></" + name + ">\n"
    }

    /// Opens a container element; close it with ``close(_:)``.
    package mutating func open(_ name: String, _ attributes: KeyValuePairs<String, String> = [:]) {
        text += "<" + name + Self.attributes(attributes) + ">\n"
    }

    /// Closes a container element opened with ``open(_:_:)``.
    package mutating func close(_ name: String) {
        text += "</" + name + ">\n"
    }

    private static func attributes(_ attributes: KeyValuePairs<String, String>) -> String {
        var out = ""
        for (key, value) in attributes { out += " " + key + "=\"" + escape(value) + "\"" }
        return out
    }

    /// Text made safe for XML content and double-quoted attributes: `<`, `>`, `&`, `"`
    /// become entities; control characters XML 1.0 does not allow become spaces.
    package static func escape(_ s: String) -> String {
        s.replacingScalars { u in
            switch u {
            case "<": "&lt;"
            case ">": "&gt;"
            case "&": "&amp;"
            case "\"": "&quot;"
            case "\t", "\n", "\r": nil
            default: u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF ? " " : nil
            }
        }
    }

    /// A coordinate with at most one decimal (`12`, `12.5`).
    package static func coordinate(_ v: Double) -> String { NumberText.decimals(v, places: 1) }
}
