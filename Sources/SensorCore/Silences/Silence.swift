/// A person's "not now" for some alerts (SPEC §21): matchers on the rule, the sensor and the
/// host (globs; one left out matches everything), a time span, who made it and why.
///
/// A silence is kept as journal entries; the newest entry of an id says what the silence
/// is now (an expiry is the same silence again, ending at the moment it was expired, see
/// docs/decisions.md), and ``SilenceBook`` folds them.
public struct Silence: Sendable, Hashable {
    /// `SILENCE_ID`: 32 hex digits in the 8-4-4-4-12 form of a UUID, as Alertmanager's are.
    public var id: String
    /// `SILENCE_RULE`; nil matches every rule.
    public var rule: Glob?
    /// `SILENCE_SENSOR`; nil matches every sensor.
    public var sensor: Glob?
    /// `SILENCE_HOST`; nil matches every host.
    public var host: Glob?
    /// `SILENCE_STARTS`, microseconds since the Unix epoch.
    public var startsMicroseconds: UInt64
    /// `SILENCE_ENDS`, microseconds since the Unix epoch: the silence holds before it.
    public var endsMicroseconds: UInt64
    /// `SILENCE_COMMENT`, empty when none was given.
    public var comment: String
    /// `SILENCE_BY`: the user who made it (or expired it), from the uid.
    public var by: String
    /// `SILENCE_STATE=expired`: this entry ended the silence before its time.
    public var expired: Bool

    /// A silence of the given fields; a matcher left nil matches everything, and times are Unix microseconds.
    public init(
        id: String, rule: Glob? = nil, sensor: Glob? = nil, host: Glob? = nil, startsMicroseconds: UInt64,
        endsMicroseconds: UInt64, comment: String = "", by: String, expired: Bool = false
    ) {
        self.id = id
        self.rule = rule
        self.sensor = sensor
        self.host = host
        self.startsMicroseconds = startsMicroseconds
        self.endsMicroseconds = endsMicroseconds
        self.comment = comment
        self.by = by
        self.expired = expired
    }

    /// Whether the silence holds at `microseconds` (from its start, up to but not at its end).
    public func isActive(atMicroseconds microseconds: UInt64) -> Bool {
        startsMicroseconds <= microseconds && microseconds < endsMicroseconds
    }

    /// Whether the matchers take an alert of `rule` on `sensor` at `host`.
    public func matches(rule: String, sensor: String, host: String) -> Bool {
        (self.rule?.matches(rule) ?? true) && (self.sensor?.matches(sensor) ?? true)
            && (self.host?.matches(host) ?? true)
    }

    /// The matchers as a person reads them: `rule=cpu-* sensor=* host=*`.
    public var matchers: String {
        "rule=\(rule?.pattern ?? "*") sensor=\(sensor?.pattern ?? "*") host=\(host?.pattern ?? "*")"
    }

    /// A fresh id: 128 random bits (the system's generator) as a UUID's text.
    public static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        let hex = (0..<2).map { _ in
            let v = generator.next() as UInt64
            let digits = String(v, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
        let c = Array(hex)
        return [c[0..<8], c[8..<12], c[12..<16], c[16..<20], c[20..<32]].map { String($0) }.joined(separator: "-")
    }
}
