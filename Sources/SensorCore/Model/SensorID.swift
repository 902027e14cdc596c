/// The stable identity of a sensor, `SOURCE:NAME` (for example `thermal:x86_pkg_temp`).
///
/// Ids order by their text, which is the tie order of events at one instant (SPEC §6).
public struct SensorID: RawRepresentable, Hashable, Comparable, Sendable,
    CustomStringConvertible, ExpressibleByStringLiteral
{
    /// The id as text: `source:name`.
    public var rawValue: String

    /// The id with the given text, taken as it is.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The id with the given text, taken as it is.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// The id written as a literal, mostly in tests.
    public init(stringLiteral value: String) { self.rawValue = value }
    /// Builds `source:name`.
    public init(source: String, name: String) { self.rawValue = source + ":" + name }

    /// The id as it appears in journal fields and the CLI.
    public var description: String { rawValue }

    /// The part before the first `:` (`thermal`, `hwmon`, `iio`, `sim`).
    public var source: Substring { rawValue.prefix { $0 != ":" } }

    /// Byte order of the ids' text, the same on every machine and locale.
    public static func < (lhs: SensorID, rhs: SensorID) -> Bool {
        // Byte order, not locale order, so every machine sorts ties the same way.
        lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8)
    }
}
