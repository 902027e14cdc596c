import SensorCore
import SensorRuntime

/// The progress line `simulate` shows on a terminal (stderr) while a long scenario runs:
/// `simulating: 12m of 1h (20%)`, rewritten at most four times a second, and only once the
/// run has taken half a second (a short one shows nothing); cleared at the end, so the
/// events that follow on stdout read as without it.
@DaemonActor
final class SimulateProgress {
    private let total: Timestamp
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private var lastShown: ContinuousClock.Instant?
    private var cycles = 0

    /// - Parameter total: the longest scenario's duration.
    init(total: Duration) {
        self.total = Timestamp(nanoseconds: max(1, total.nanoseconds))
        started = clock.now
    }

    /// Sees each cycle the simulation commits.
    func saw(_ cycle: PollCycle) {
        cycles += 1
        // The clock is read every 256 cycles: often enough for the eye, cheap for the run.
        guard cycles % 256 == 0 else { return }
        let now = clock.now
        guard started.duration(to: now) >= .milliseconds(500) else { return }
        if let last = lastShown, last.duration(to: now) < .milliseconds(250) { return }
        lastShown = now
        let done = min(cycle.time.nanoseconds, total.nanoseconds)
        let percent = Int(Double(done) / Double(total.nanoseconds) * 100)
        let line =
            "\r\u{1B}[Ksimulating: " + NumberText.duration(seconds: Timestamp(nanoseconds: done).seconds.rounded(.down))
            + " of " + NumberText.duration(seconds: total.seconds) + " (\(percent)%)"
        FileDescriptorWriter.writeAll(2, Array(line.utf8))
    }

    /// Clears the line if one was shown.
    func finish() {
        if lastShown != nil { FileDescriptorWriter.writeAll(2, Array("\r\u{1B}[K".utf8)) }
    }
}
