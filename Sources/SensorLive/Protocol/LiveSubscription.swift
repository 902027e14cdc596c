public import SensorCore
import SensorRuntime

/// The one line a client may send first (SPEC §22): `{"subscribe": {"sensor": ["GLOB", …]}}`,
/// after which it gets only those sensors and their alerts.
public struct LiveSubscription: Sendable, Hashable {
    /// The longest request line the daemon reads; anything longer is junk.
    public static let maximumLineBytes = 4096

    /// The sensor-id globs; a sensor any of them matches is sent.
    public var sensors: [Glob]

    /// A subscription to the sensors `sensors` matches.
    public init(sensors: [Glob]) { self.sensors = sensors }

    /// Whether the sensor with `id` is sent.
    public func includes(_ id: String) -> Bool { sensors.contains { $0.matches(id) } }

    /// The request as one line, without the newline.
    public var line: String {
        JSONWriter.text(
            .object(
                JSONObject([
                    JSONObject.Member(
                        key: "subscribe",
                        value: .object(
                            JSONObject([
                                JSONObject.Member(key: "sensor", value: .array(sensors.map { .string($0.pattern) }))
                            ])))
                ])))
    }

    /// The subscription a client's line asks for.
    ///
    /// - Throws: ``LiveProtocolError`` for anything else: the daemon sends it back as an
    ///   `error` and closes the connection.
    public static func decode(_ line: String) throws(LiveProtocolError) -> LiveSubscription {
        let f = try LiveMessage.fields(of: line)
        guard f.object.keys == ["subscribe"] else {
            throw LiveProtocolError(
                "expected {\"subscribe\": {\"sensor\": [GLOB, …]}}, the only request the stream takes")
        }
        let s = try LiveFields(f.object["subscribe"], path: "subscribe")
        guard s.object.keys == ["sensor"], let patterns = try s.optionalStrings("sensor") else {
            throw LiveProtocolError("subscribe: expected {\"sensor\": [GLOB, …]}")
        }
        var globs: [Glob] = []
        for (i, p) in patterns.enumerated() {
            do {
                globs.append(try Glob(p))
            } catch {
                throw LiveProtocolError("subscribe.sensor[\(i)]: \(error.message)")
            }
        }
        return LiveSubscription(sensors: globs)
    }
}
