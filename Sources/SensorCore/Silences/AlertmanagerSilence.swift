/// A silence as Alertmanager's API v2 takes it (`POST /api/v2/silences`, SPEC §21):
/// matchers `alertname`, `sensor` and `host` as regular expressions from the globs,
/// `createdBy`, `comment`, `startsAt`, `endsAt`.
public enum AlertmanagerSilence {
    /// The request body for `silence`. Alertmanager requires a comment: an empty one says
    /// which sensorwatch silence it is.
    public static func body(_ silence: Silence) -> String {
        var matchers: [String] = []
        for (name, glob) in [("alertname", silence.rule), ("sensor", silence.sensor), ("host", silence.host)] {
            guard let glob else { continue }
            matchers.append(
                "{\"name\":\"\(name)\",\"value\":" + EventFormatter.jsonString(glob.regularExpression)
                    + ",\"isRegex\":true,\"isEqual\":true}")
        }
        let comment = silence.comment.isEmpty ? "sensorwatch silence \(silence.id)" : silence.comment
        var s = "{\"matchers\":[" + matchers.joined(separator: ",") + "]"
        s += ",\"startsAt\":\"" + NotifyTime.rfc3339(microseconds: silence.startsMicroseconds) + "\""
        s += ",\"endsAt\":\"" + NotifyTime.rfc3339(microseconds: silence.endsMicroseconds) + "\""
        s += ",\"createdBy\":" + EventFormatter.jsonString(silence.by.isEmpty ? "sensorwatch" : silence.by)
        s += ",\"comment\":" + EventFormatter.jsonString(comment) + "}"
        return s
    }

    /// The id in Alertmanager's answer `{"silenceID":"…"}`; nil when there is none.
    public static func id(inAnswer body: String) -> String? {
        guard let key = body.firstRange(of: "\"silenceID\":\"") else { return nil }
        let rest = body[key.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        let id = String(rest[..<end])
        // An id goes into a URL path: only what Alertmanager's UUIDs hold.
        guard !id.isEmpty, id.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { return nil }
        return id
    }
}
