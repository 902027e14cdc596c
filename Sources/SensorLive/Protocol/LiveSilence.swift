package import SensorCore
package import SensorRuntime

/// One active silence (SPEC §21) as the stream shows it: its matchers (nil matches
/// everything), its span, who made it and why.
public struct LiveSilence: Sendable, Hashable {
    /// The silence's id.
    public var id: String
    /// The rule glob; nil matches every rule.
    public var rule: String?
    /// The sensor glob; nil matches every sensor.
    public var sensor: String?
    /// The host glob; nil matches every host.
    public var host: String?
    /// When it starts, Unix seconds.
    public var starts: Double
    /// When it ends, Unix seconds.
    public var ends: Double
    /// Who made it.
    public var by: String
    /// Why; empty when no reason was given.
    public var comment: String

    /// A silence as given.
    public init(
        id: String, rule: String? = nil, sensor: String? = nil, host: String? = nil, starts: Double, ends: Double,
        by: String = "", comment: String = ""
    ) {
        self.id = id
        self.rule = rule
        self.sensor = sensor
        self.host = host
        self.starts = starts
        self.ends = ends
        self.by = by
        self.comment = comment
    }

    /// The stream's form of a silence from the journal.
    package init(_ silence: Silence) {
        self.init(
            id: silence.id, rule: silence.rule?.pattern, sensor: silence.sensor?.pattern, host: silence.host?.pattern,
            starts: Double(silence.startsMicroseconds) / 1e6, ends: Double(silence.endsMicroseconds) / 1e6,
            by: silence.by,
            comment: silence.comment)
    }

    /// The object, as `silence list --json` names the fields.
    package var json: JSONValue {
        .object(
            JSONObject([
                .string("id", id), .optionalString("rule", rule), .optionalString("sensor", sensor),
                .optionalString("host", host),
                .time("starts", starts), .time("ends", ends), .string("by", by), .string("comment", comment),
            ]))
    }

    /// The silence at `path` of a message.
    package init(json: JSONValue, path: String) throws(LiveProtocolError) {
        let f = try LiveFields(json, path: path)
        self.init(
            id: try f.string("id"), rule: try f.optionalString("rule"), sensor: try f.optionalString("sensor"),
            host: try f.optionalString("host"), starts: try f.time("starts"), ends: try f.time("ends"),
            by: try f.optionalString("by") ?? "", comment: try f.optionalString("comment") ?? "")
    }
}
