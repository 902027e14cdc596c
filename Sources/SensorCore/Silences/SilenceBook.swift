/// The silences a reader has seen, folded from their journal entries in journal order:
/// the newest entry of an id is what that silence is now (SPEC §21).
///
/// Pure: times come from the caller (the injected clock), so notify's held-back alerts and
/// `status` decide the same way in tests as in production.
public struct SilenceBook: Sendable, Hashable {
    /// Each id's newest entry.
    public private(set) var silences: [String: Silence] = [:]
    /// Ids in the order they were first seen, so lists come out oldest first.
    private var order: [String] = []

    /// A book of `silences`, recorded in the order given (journal order).
    public init(_ silences: [Silence] = []) {
        for s in silences { record(s) }
    }

    /// Takes one entry (a new silence, or a later entry of a known one, such as its expiry).
    public mutating func record(_ silence: Silence) {
        if silences[silence.id] == nil { order.append(silence.id) }
        silences[silence.id] = silence
    }

    /// The silences that hold at `microseconds`, oldest first.
    public func active(atMicroseconds microseconds: UInt64) -> [Silence] {
        order.compactMap { silences[$0] }.filter { $0.isActive(atMicroseconds: microseconds) }
    }

    /// The silence that holds at `microseconds` for an alert of `rule` on `sensor` at `host`
    /// and ends last (what a person wants to know: until when it stays quiet), or nil.
    public func silencing(rule: String, sensor: String, host: String, atMicroseconds microseconds: UInt64) -> Silence? {
        active(atMicroseconds: microseconds).filter { $0.matches(rule: rule, sensor: sensor, host: host) }
            .max { $0.endsMicroseconds < $1.endsMicroseconds }
    }

    /// The earliest end after `microseconds` of a silence that holds then: when the set of
    /// active silences changes next (nil: never, as far as is known).
    public func nextEnd(afterMicroseconds microseconds: UInt64) -> UInt64? {
        active(atMicroseconds: microseconds).map(\.endsMicroseconds).min()
    }
}
