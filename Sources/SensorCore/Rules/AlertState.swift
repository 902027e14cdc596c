public import SensorRuntime

/// The state of one (rule, sensor) alert between samples.
public struct AlertState: Hashable, Sendable {
    /// Where the alert is in `ok → pending → firing`.
    public enum Phase: Hashable, Sendable {
        /// Not firing and not waiting to.
        case ok
        /// The condition has been true on every evaluation since `since`; waiting for `for`.
        case pending(since: Timestamp)
        /// Firing since `since`; `clearing` is the first false evaluation of a `clearFor`
        /// wait; `lastSent` is when a firing or repeat event last went out.
        case firing(since: Timestamp, clearing: Timestamp?, lastSent: Timestamp)
    }

    /// The alert's phase.
    public var phase: Phase = .ok
    /// Whether the condition is true; kept between samples for hysteresis.
    public var conditionTrue = false
    // Declared next to `conditionTrue`, in the padding after the phase: the engine keeps one
    // state per alert side by side, so its size is memory traffic.

    /// Set on a `predict` alert restored as firing (``markRestoredFiring(at:)``): its window
    /// starts empty, so until it holds a line again a sample without one leaves the alert
    /// alone instead of resolving it.
    public var awaitingLine = false
    /// An `alarm: true` alert: the alarms that made it fire, so its `resolved` names them.
    public var alarmsSeen: HardwareAlarms = []
    /// Last successful reading (for `stale`); starts at the run start or first sight.
    public var lastSuccess: Timestamp
    /// Sliding minimum/maximum for `rise`/`fall`.
    public var window: MonotonicWindow?
    /// Least-squares window for `predict`.
    public var trend: TrendWindow?

    /// A fresh alert for a condition, counting staleness from `start`.
    public init(condition: Condition, start: Timestamp) {
        lastSuccess = start
        switch condition {
        case .rise(_, let within): window = MonotonicWindow(.minimum, width: within)
        case .fall(_, let within): window = MonotonicWindow(.maximum, width: within)
        case .predict(let p): trend = TrendWindow(width: p.over, horizon: p.within)
        default: window = nil
        }
    }

    /// Marks the alert as firing since `time`, as kept across a restart: the condition is
    /// taken as true, and a `predict` alert waits for its window to hold a line.
    public mutating func markRestoredFiring(at time: Timestamp) {
        phase = .firing(since: time, clearing: nil, lastSent: time)
        conditionTrue = true
        awaitingLine = trend != nil
    }

    /// Whether the alert is firing.
    public var isFiring: Bool {
        if case .firing = phase { return true }
        return false
    }
}
