public import SensorConfig
public import SensorCore
import SensorDaemon
public import SensorRuntime
import Synchronization

/// Polls the configured real sources and gathers what they read into a ``Recorder``
/// (SPEC §15).
///
/// The sources run as in `run`, through the daemon's ``SourceSupervisor`` committing to a
/// ``SensorData`` of the recording's own: each on its own poll thread at its interval (or
/// the one given for all), rediscovered at least once a minute, a read hanging in the
/// kernel stalling only its own source. A ``TrackingLoop`` hands every committed cycle to
/// the recorder (exactly once, in order), as the rule loop does to the rules.
///
/// ``run()`` ends at ``stop()`` (a signal) once every source has polled at least once, or
/// with a `duration` once every source has polled its tick at that time; a hanging source
/// holds either up for a second at most. Every cycle committed before the end is kept; a
/// poll still in flight at the end (blocked in the kernel, or not yet committed) is
/// abandoned.
public final class RecordingSession<C: RunClock>: Sendable {
    /// The scenario's `step`: the smallest interval polled.
    public let step: Duration
    private let sources: [SourceConfiguration]
    private let duration: Duration?
    private let clock: C
    private let makeReader: @Sendable (SourceConfiguration) -> any SensorReader
    private let log: any DaemonLog
    private let recorder: Mutex<Recorder>
    private let state = Mutex(State())
    private let wakeups: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    private struct State {
        var stopRequested = false
        var timedOut = false
        /// Sources (by key) that have delivered their first poll.
        var sourcesStarted: Set<String> = []
        /// Sources (by key) that have polled their tick at `duration`.
        var sourcesDone: Set<String> = []
    }

    /// How long a `duration` run waits past its end for a source's last tick.
    static var grace: Duration { .seconds(1) }

    /// The sources `record` reads: thermal, hwmon and iio (not simulated ones).
    public static func recordable(_ sources: [SourceConfiguration]) -> [SourceConfiguration] {
        sources.filter { $0.kind != .simulated }
    }

    /// - Parameters:
    ///   - sources: the real sources to read (see ``recordable(_:)``); at least one.
    ///   - interval: replaces every source's interval when given (`--interval`).
    ///   - duration: how long to record (nil: until ``stop()``).
    ///   - clock: the run's clock (``BootClock``; a manual one in tests): its alarms pace the
    ///     poll threads, and the run's end waits on it.
    ///   - makeReader: the reader of a source (SensorCLI's `SourceReaders`; tests give
    ///     scripted ones).
    public init(
        sources: [SourceConfiguration], interval: Duration?, duration: Duration?, clock: C,
        makeReader: @escaping @Sendable (SourceConfiguration) -> any SensorReader,
        log: any DaemonLog = MemoryLog()
    ) {
        self.log = log
        precondition(!sources.isEmpty, "a recording needs a source")
        self.sources = sources.map { source in
            var source = source
            if let interval { source.interval = interval }
            return source
        }
        step = self.sources.map(\.interval).min()!
        self.duration = duration
        self.clock = clock
        self.makeReader = makeReader
        recorder = Mutex(Recorder(limit: duration))
        (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// How far the recording has come; cheap enough to ask every second.
    public var progress: Recorder.Progress { recorder.withLock { $0.progress } }
    /// How many samples have been recorded (tests wait for them: `samplesRecorded.until(n)`).
    package let samplesRecorded = EventCount()

    /// Ends ``run()`` soon, keeping everything read so far; safe from any thread, also
    /// before `run()` has started.
    public func stop() {
        state.withLock { $0.stopRequested = true }
        wake.yield()
    }

    /// Records until ``stop()`` or the duration, and returns what was recorded.
    @DaemonActor
    public func run() async -> Recorder {
        let start = clock.now
        let clock = self.clock
        let data = SensorData()
        let loop = TrackingLoop(data: data, quantities: Set(Quantity.allCases))
        let supervisor = SourceSupervisor(
            sources: sources, derived: [], data: data, makeReader: makeReader,
            makePacer: { PollPacer(clock: clock, start: start) },
            // No READY to hold back for the first discoveries: a source joins when it can.
            wait: { _ in }, log: log)
        let count = sources.count
        await withTaskGroup(of: Void.self) { recording in
            // Stops after the sources (the outer group ends last): it takes what they committed.
            recording.addTask { await loop.run { cycle in self.take(cycle) } }
            await withTaskGroup(of: Void.self) { polling in
                polling.addTask { await supervisor.run() }
                if let duration {
                    polling.addTask { await self.timeOut(at: start.advanced(by: duration + Self.grace)) }
                }
                var stopTimer = false
                for await _ in wakeups {
                    let (finished, stopping) = state.withLock { s in
                        // A stop keeps the first poll of every source (an early Ctrl-C still
                        // leaves a recording), waiting for it no longer than the grace.
                        let stopNow = s.stopRequested && s.sourcesStarted.count == count
                        return (s.timedOut || stopNow || s.sourcesDone.count == count, s.stopRequested)
                    }
                    if finished { break }
                    if stopping, !stopTimer {
                        stopTimer = true
                        let end = clock.now.advanced(by: Self.grace)
                        polling.addTask { await self.timeOut(at: end) }
                    }
                }
                // A poll blocked in the kernel is abandoned, not awaited.
                polling.cancelAll()
            }
            recording.cancelAll()
        }
        return recorder.withLock { $0 }
    }

    /// Records one committed cycle and wakes ``run()`` on news.
    private func take(_ cycle: PollCycle) {
        let (reached, added) = recorder.withLock { r in
            let before = r.sampleCount
            return (r.add(cycle), r.sampleCount - before)
        }
        samplesRecorded.increment(by: added)
        let news = state.withLock { s in
            let first = s.sourcesStarted.insert(cycle.source).inserted
            let done = duration.map { reached >= $0 } == true && s.sourcesDone.insert(cycle.source).inserted
            return first || done
        }
        if news { wake.yield() }
    }

    /// Ends the run at `instant` at the latest (unless cancelled first).
    private func timeOut(at instant: C.Instant) async {
        do { try await clock.sleep(until: instant, tolerance: nil) } catch { return }
        state.withLock { $0.timedOut = true }
        wake.yield()
    }
}
