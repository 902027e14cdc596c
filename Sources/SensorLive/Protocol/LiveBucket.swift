package import SensorRuntime

/// Five seconds of one sensor's history (SPEC §22): `[time, min, max, last]`, `time` the
/// bucket's start in whole Unix seconds (a multiple of 5).
///
/// The time is a number, not RFC 3339 text as elsewhere: a snapshot of a thousand sensors
/// holds 120 000 buckets, and a number is a fifth of the bytes and no formatting.
public struct LiveBucket: Sendable, Hashable {
    /// The length of a bucket, seconds.
    public static let seconds: Int64 = 5
    /// How many buckets a sensor's history holds: ten minutes.
    public static let count = 120

    /// The bucket's start, Unix seconds, a multiple of ``seconds``.
    public var time: Int64
    /// The least value read in it.
    public var min: Double
    /// The greatest value read in it.
    public var max: Double
    /// The last value read in it.
    public var last: Double

    /// A bucket as given.
    public init(time: Int64, min: Double, max: Double, last: Double) {
        self.time = time
        self.min = min
        self.max = max
        self.last = last
    }

    /// The start of the bucket that holds Unix time `seconds`.
    public static func start(of seconds: Double) -> Int64 {
        let whole = Int64(seconds.rounded(.down))
        return whole - ((whole % Self.seconds) + Self.seconds) % Self.seconds
    }

    /// Takes one more value read in this bucket.
    public mutating func add(_ value: Double) {
        min = Swift.min(min, value)
        max = Swift.max(max, value)
        last = value
    }

    /// `[time, min, max, last]`.
    package var json: JSONValue { .array([.integer(time), .number(min), .number(max), .number(last)]) }

    /// The bucket at `path` of a message.
    package init(json: JSONValue, path: String) throws(LiveProtocolError) {
        guard case .array(let a) = json, a.count == 4, case .integer(let time) = a[0] else {
            throw LiveProtocolError("\(path): expected [time, min, max, last]")
        }
        var numbers: [Double] = []
        for v in a.dropFirst() {
            switch v {
            case .integer(let i): numbers.append(Double(i))
            case .number(let d) where d.isFinite: numbers.append(d)
            default: throw LiveProtocolError("\(path): expected [time, min, max, last] of numbers")
            }
        }
        self.init(time: time, min: numbers[0], max: numbers[1], last: numbers[2])
    }
}
