/// Which of a sensor's alarm files read 1 at one poll (SPEC §16b): the plain `<ch>_alarm`
/// and `<ch>_<limit>_alarm` for the limits of §16. A bit set, so a sample carries it in two
/// bytes and the rule engine tests it without allocating.
public struct HardwareAlarms: OptionSet, Hashable, Sendable {
    /// The bits, in the order of ``names``.
    public let rawValue: UInt16

    /// The set with the given bits.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The names, in bit order: `alarm` (the plain file), then every limit of
    /// ``SensorLimits/lowerNames`` and ``SensorLimits/upperNames``.
    public static let names = ["alarm"] + SensorLimits.lowerNames + SensorLimits.upperNames

    /// The alarm of that name (`crit`, `alarm`); nil for a name that has none.
    public init?(name: String) {
        guard let i = Self.names.firstIndex(of: name) else { return nil }
        self.init(rawValue: 1 << UInt16(i))
    }

    /// The names of the set ones, in ``names`` order.
    public var list: [String] {
        Self.names.indices.filter { rawValue & (1 << UInt16($0)) != 0 }.map { Self.names[$0] }
    }

    /// The name an `alarm: true` rule's event gives: a limit's before the plain file's,
    /// the first in ``names`` order.
    public var primary: String? {
        let l = list
        return l.first { $0 != "alarm" } ?? l.first
    }
}
