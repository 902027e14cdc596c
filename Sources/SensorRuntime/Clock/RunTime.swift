/// A run's clock with its time zero: what a service is given to read run time
/// (``Timestamp``, time since the run's start) and to wait on the run's clock.
///
/// One value instead of a `now` and a `sleep` split off the clock: the daemon's services
/// keep the clock itself, so a test's manual clock is the one they sleep on.
public struct RunTime: Sendable {
    /// The run's clock: every wait is a sleep on it.
    public let clock: any RunClock
    /// The time since the start, by the clock; the start's instant is of the clock's own
    /// type, which the existential cannot name.
    private let sinceStart: @Sendable () -> Duration

    /// The run of `clock` that started at `start`.
    public init<C: RunClock>(clock: C, start: C.Instant) {
        self.clock = clock
        sinceStart = { start.duration(to: clock.now) }
    }

    /// How long the run has lasted.
    public var elapsed: Duration { sinceStart() }

    /// The run time now.
    public var now: Timestamp { Timestamp(nanoseconds: elapsed.nanoseconds) }

    /// Sleeps `duration` on the run's clock (cancellable: throws `CancellationError`).
    public func sleep(for duration: Duration) async throws { try await clock.sleep(for: duration) }
}
