import Observation
public import SensorCore
public import SensorRuntime

/// Hands every committed poll cycle of some quantities to a handler, exactly once and in
/// commit order, by re-arming one-shot `withObservationTracking` on `SensorData`.
///
/// The well-known loop (`withObservationTracking { read value } onChange: { resume }`, then
/// read the latest value) has three flaws this one avoids:
/// - `onChange` runs in `willSet`, before the new value is stored: this loop never reads in
///   `onChange`, it only wakes up, and reads after the commit has finished.
/// - wake-ups coalesce: several commits before the loop runs give one wake-up. This loop
///   drains the cycle log, so every sample is evaluated, in order.
/// - a waiting continuation must be cancellable: cancelling the task resumes the wait and
///   the loop returns.
@DaemonActor
public final class TrackingLoop {
    private let data: SensorData
    private var quantities: [Quantity]
    private let observesHeartbeat: Bool
    /// The wake-up of the wait in progress, so ``track(_:)`` can re-arm it.
    private var waking: ChangeSignal?

    /// - Parameters:
    ///   - data: the model to follow.
    ///   - quantities: the quantities whose cycles the handler needs (from the rules).
    ///   - heartbeat: also wake on ``SensorData/beat()``, so the loop runs (and can feed a
    ///     watchdog) when no sensor changes.
    public init(data: SensorData, quantities: Set<Quantity>, heartbeat: Bool = false) {
        self.data = data
        self.quantities = Quantity.allCases.filter(quantities.contains)
        self.observesHeartbeat = heartbeat
        data.startLogging(quantities)
    }

    /// Follows these quantities from now on (a reload's rules may need others); the wait in
    /// progress is re-armed with them.
    public func track(_ quantities: Set<Quantity>) {
        self.quantities = Quantity.allCases.filter(quantities.contains)
        data.startLogging(quantities)
        waking?.fire()
    }

    /// Runs until the task is cancelled: hands each committed cycle to `handle`, then calls
    /// `iteration` once per wake-up (after the drain).
    public func run(
        _ handle: (PollCycle) -> Void,
        iteration: () -> Void = {}
    ) async {
        while !Task.isCancelled {
            drain(handle)
            iteration()
            await waitForChange()
        }
        drain(handle)
    }

    /// How many times the loop has drained and armed its wait: once it has, a commit wakes it
    /// (tests wait for it instead of yielding).
    package let armed = EventCount()

    /// How many cycles the last drain handed over (more than one: the loop had fallen behind).
    public private(set) var lastDrainCount = 0

    /// Hands every cycle committed so far to `handle`, in commit order.
    public func drain(_ handle: (PollCycle) -> Void) {
        var count = 0
        // Cycles committed by `handle` itself are taken on the next round.
        while data.hasLogged {
            let cycles = data.takeLogged()
            count += cycles.count
            for i in cycles.indices { handle(cycles[i]) }
        }
        lastDrainCount = count
    }

    /// Suspends until an observed property changes or the task is cancelled.
    func waitForChange() async {
        let signal = ChangeSignal()
        waking = signal
        defer { waking = nil }
        // Nothing can commit between the drain and the arming (both run on the DaemonActor),
        // but a cycle committed by the handler must not wait for the next commit.
        await nextChange(
            of: { [data, quantities, observesHeartbeat] in
                for quantity in quantities { _ = data.revision(of: quantity) }
                if observesHeartbeat { _ = data.heartbeat }
            }, alreadyChanged: { data.hasLogged }, signal: signal, armed: armed)
    }
}
