import SensorRuntime
public import SensorCore

/// A silence as Alertmanager's API v2 takes it (`POST /api/v2/silences`, SPEC §21):
/// matchers `alertname`, `sensor` and `host` as regular expressions from the globs,
/// `createdBy`, `comment`, `startsAt`, `endsAt`.
public enum AlertmanagerSilence {
    /// The request body for `silence`. Alertmanager requires a comment: an empty one says
    /// which sensorwatch silence it is.
    public static func body(_ silence: Silence) -> String {
        func member(_ key: String, _ value: JSONValue) -> JSONObject.Member {
            JSONObject.Member(key: key, value: value)
        }
        let matchers = [("alertname", silence.rule), ("sensor", silence.sensor), ("host", silence.host)].compactMap {
            name, glob -> JSONValue? in
            glob.map {
                .object(
                    JSONObject([
                        member("name", .string(name)), member("value", .string($0.regularExpression)),
                        member("isRegex", .bool(true)), member("isEqual", .bool(true)),
                    ]))
            }
        }
        let comment = silence.comment.isEmpty ? "sensorwatch silence \(silence.id)" : silence.comment
        return JSONWriter.text(
            .object(
                JSONObject([
                    member("matchers", .array(matchers)),
                    member("startsAt", .string(RFC3339.format(microseconds: silence.startsMicroseconds))),
                    member("endsAt", .string(RFC3339.format(microseconds: silence.endsMicroseconds))),
                    member("createdBy", .string(silence.by.isEmpty ? "sensorwatch" : silence.by)),
                    member("comment", .string(comment)),
                ])))
    }

    /// The id in Alertmanager's answer `{"silenceID":"…"}` (read with ``JSON5Parser``); nil
    /// when there is none, or the answer is not a JSON object.
    public static func id(inAnswer body: String) -> String? {
        guard case .object(let answer)? = try? JSON5Parser.parse(body), case .string(let id)? = answer["silenceID"]
        else {
            return nil
        }
        // An id goes into a URL path: only what Alertmanager's UUIDs hold.
        guard !id.isEmpty, id.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { return nil }
        return id
    }
}
