import SensorCore
import SensorRuntime
import Synchronization

/// Plays a scenario that does not loop ahead of the polls that ask for it, on a thread of
/// its own: in `simulate` the next stretch of samples is made while the rules evaluate the
/// one before, the two cores each doing one (bench/README.md). The polls get exactly what
/// ``SimulatedReader`` playing inline gives them: the same instants, in the same order.
///
/// The thread plays stretches of `span` one after another up to the scenario's end, at most
/// `depth` ahead of the polls; it ends there, or when the reader goes (``stop()``). A poll
/// waits only for the stretch that holds its time, which the thread is making already.
final class ScenarioReadAhead: Sendable {
    /// The instants of `(previous through, through]`.
    private struct Stretch: Sendable {
        var through: Int64
        var instants: [SensorValues]
    }

    /// The stretch polls take from, and how much of it they took.
    private struct Taking {
        var current = Stretch(through: .min, instants: [])
        var taken = 0
        /// The thread made its last stretch and the polls took it.
        var over = false
    }

    private let taking = Mutex(Taking())
    /// The stretches made and not yet taken, at most `depth`: the thread waits for room.
    private let stretches: BoundedHandOff<Stretch>

    /// Starts the thread; throws when there is none to be had (the caller plays inline).
    ///
    /// - Parameters:
    ///   - playback: the scenario, before its first sample; the thread's own from now on.
    ///   - end: the scenario's duration: the last stretch ends there.
    ///   - instants: the instants a playback plays through a time (on the thread).
    init(
        _ playback: ScenarioPlayback, span: Int64, end: Int64, depth: Int,
        instants: @escaping @Sendable (inout ScenarioPlayback, _ through: Timestamp) -> [SensorValues]
    ) throws(SystemError) {
        let stretches = BoundedHandOff<Stretch>(capacity: depth)
        self.stretches = stretches
        try DetachedThread.start("simulated scenario") {
            var playback = playback
            var through = min(span, end)
            while stretches.waitForRoom() {
                stretches.send(
                    Stretch(through: through, instants: instants(&playback, Timestamp(nanoseconds: through))))
                if through >= end { break }
                through = min(through &+ span, end)
            }
            stretches.finish(nil)
        }
    }

    /// Every instant not yet taken with time ≤ `time`, in time order.
    func take(through time: Timestamp) -> [SensorValues] {
        let limit = time.nanoseconds
        return taking.withLock { t in
            var out: [SensorValues] = []
            while true {
                while t.taken < t.current.instants.count, t.current.instants[t.taken].time.nanoseconds <= limit {
                    out.append(t.current.instants[t.taken])
                    t.taken += 1
                }
                // An instant after `time` is waiting, or the stretch reached past `time`: the
                // next one holds none of this poll's.
                let covered = t.taken < t.current.instants.count || t.current.through >= limit
                if covered || t.over { return out }
                // The thread throws nothing: nil is the end.
                guard let next = try? stretches.next() else {
                    t.over = true
                    return out
                }
                t.current = next
                t.taken = 0
            }
        }
    }

    /// Ends the thread at its next stretch (the reader went).
    func stop() {
        stretches.cancel()
    }
}
