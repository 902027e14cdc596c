public import SensorCore

/// What an `exec` target does with events while silences hold (SPEC §21): a pure state
/// machine over one lane's events, the silences and the time, all given by the caller.
///
/// An event an active silence matches is not delivered. A silenced `firing` or `repeat` is
/// held back; when no silence matches it any more (the silence ended, or was expired) it is
/// released, once, as `firing`. A `resolved` whose `firing` is held (never delivered) is not
/// delivered, and the held one is dropped.
public struct SilenceGate: Sendable, Hashable {
    /// The held-back alerts, oldest first, one per alert (rule, sensor, host): the newest
    /// event of each, as `firing`. Kept in `notify.json`, so a restart holds them still.
    public private(set) var held: [NotifyEvent]

    /// A gate holding `held` back, as `notify.json` kept them.
    public init(held: [NotifyEvent] = []) { self.held = held }

    /// Whether `event` is to be delivered now; otherwise it is held back or dropped.
    public mutating func admit(_ event: NotifyEvent, silences: SilenceBook, nowMicroseconds now: UInt64) -> Bool {
        let index = held.firstIndex { Self.sameAlert($0, event) }
        let silenced =
            silences.silencing(rule: event.rule, sensor: event.sensor, host: event.host, atMicroseconds: now) != nil
        switch (event.kind, silenced) {
        case (.firing, true), (.repeat, true):
            var firing = event
            firing.kind = .firing
            if let index { held.remove(at: index) }
            held.append(firing)
            return false
        case (.resolved, _) where index != nil:
            held.remove(at: index!)
            return false
        case (.resolved, true):
            return false
        case (_, false):
            if let index { held.remove(at: index) }
            return true
        }
    }

    /// The held-back alerts no silence matches at `now`, oldest first: to be delivered (as
    /// `firing`), each ``forget(_:)``-ed once it is, so one cut short by a stop stays held.
    public func releasable(silences: SilenceBook, nowMicroseconds now: UInt64) -> [NotifyEvent] {
        held.filter { silences.silencing(rule: $0.rule, sensor: $0.sensor, host: $0.host, atMicroseconds: now) == nil }
    }

    /// Drops the held-back alert of `event` (delivered, or given up on).
    public mutating func forget(_ event: NotifyEvent) {
        held.removeAll { Self.sameAlert($0, event) }
    }

    /// When a held-back alert may be released next: the end of the silence that holds it
    /// longest, earliest over the held ones; nil when none is held.
    public func nextRelease(silences: SilenceBook, nowMicroseconds now: UInt64) -> UInt64? {
        held.compactMap { e in
            silences.silencing(rule: e.rule, sensor: e.sensor, host: e.host, atMicroseconds: now)?.endsMicroseconds
        }.min()
    }

    private static func sameAlert(_ a: NotifyEvent, _ b: NotifyEvent) -> Bool {
        a.rule == b.rule && a.sensor == b.sensor && a.host == b.host
    }
}
