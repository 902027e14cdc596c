import Observation
package import SensorRuntime

/// Which alerts fire, since when — as the state file keeps them (SPEC §8) — written off the
/// rule loop by a ``LatestValueWriter``. A service: cancelled (last, at stop), it writes
/// the newest state before it returns.
@DaemonActor
@Observable
package final class AlertLedger: Service {
    /// How many alerts fire now (`STATUS=`).
    package private(set) var firingCount = 0
    @ObservationIgnored private var kept: [AlertKey: PersistedAlert] = [:]
    @ObservationIgnored private let writer: LatestValueWriter<[AlertKey: PersistedAlert]>
    @ObservationIgnored private let wallClock: any WallClock
    /// Events sent since start, per rule name: firing, resolved, repeat (the metrics
    /// file's counters; they survive a reload, as counters must).
    @ObservationIgnored private var counts: [String: [UInt64]] = [:]

    /// - Parameters:
    ///   - restored: the alerts firing at the last stop; those of rules not in `rules` are
    ///     forgotten (they could never resolve).
    ///   - persist: writes the firing alerts, sorted, on the writer's thread.
    package init(
        restored: [PersistedAlert], rules: [Rule], persist: @escaping @Sendable ([PersistedAlert]) -> Void,
        wallClock: any WallClock
    ) {
        writer = LatestValueWriter("alert state") { kept in persist(kept.values.sorted { $0.key < $1.key }) }
        self.wallClock = wallClock
        let names = Set(rules.map(\.name))
        for alert in restored where names.contains(alert.rule) { kept[alert.key] = alert }
        firingCount = kept.count
    }

    /// Why the state file has no writer thread of its own, if it has none.
    package var writerFailure: SystemError? { writer.threadFailure }

    /// How many events of `kind` the rule named `rule` has sent since the daemon started.
    package func eventCount(rule: String, kind: EventKind) -> UInt64 {
        counts[rule]?[Self.slot(kind)] ?? 0
    }

    private static func slot(_ kind: EventKind) -> Int {
        switch kind {
        case .firing: return 0
        case .resolved: return 1
        case .repeat: return 2
        }
    }

    /// When the alert fired, wall-clock seconds (also across a restart); nil if it does not fire.
    package func firingSince(_ key: AlertKey) -> Double? { kept[key]?.since }

    /// The alerts kept as firing.
    package var keys: Dictionary<AlertKey, PersistedAlert>.Keys { kept.keys }

    package func run() async {
        await untilCancelled()
        writer.submit(kept)
        await writer.close()
    }

    /// Notes the alerts that fired, resolved or repeated; writes when the firing set changed.
    package func record(_ events: [AlertEvent]) {
        var changed = false
        for event in events {
            counts[event.rule, default: [0, 0, 0]][Self.slot(event.kind)] += 1
            let key = AlertKey(rule: event.rule, sensor: event.sensor.id)
            switch event.kind {
            case .firing:
                kept[key] = PersistedAlert(firing: event, since: wallClock.now.seconds)
                changed = true
            case .resolved:
                changed = kept.removeValue(forKey: key) != nil || changed
            case .repeat:
                kept[key]?.value = event.value
            }
        }
        guard changed else { return }
        if firingCount != kept.count { firingCount = kept.count }
        writer.submit(kept)
    }

    /// Forgets alerts of rules that no longer exist (after a reload).
    package func keepOnly(_ rules: [Rule]) {
        let names = Set(rules.map(\.name))
        guard kept.keys.contains(where: { !names.contains($0.rule) }) else { return }
        kept = kept.filter { names.contains($0.key.rule) }
        firingCount = kept.count
        writer.submit(kept)
    }
}
