import Dispatch
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

    private struct State: Sendable {
        var ready: [Stretch] = []
        /// The stretch polls take from, and how much of it they took.
        var current = Stretch(through: .min, instants: [])
        var taken = 0
        /// The thread made its last stretch.
        var finished = false
        var stopped = false
    }

    private let state = Mutex(State())
    /// Counts stretches made and not yet taken.
    private let made = DispatchSemaphore(value: 0)
    /// Counts the stretches the thread may still make ahead. Made at 0 and raised to the
    /// depth: libdispatch refuses to free a semaphore below the value it was made with.
    private let room = DispatchSemaphore(value: 0)

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
        for _ in 0..<depth { room.signal() }
        try DetachedThread.start("simulated scenario") { [self] in
            var playback = playback
            var through = min(span, end)
            while true {
                room.wait()
                if state.withLock({ $0.stopped }) { return }
                let stretch = Stretch(through: through, instants: instants(&playback, Timestamp(nanoseconds: through)))
                let last = through >= end
                state.withLock { s in
                    s.ready.append(stretch)
                    s.finished = last
                }
                made.signal()
                if last { return }
                through = min(through &+ span, end)
            }
        }
    }

    /// Every instant not yet taken with time ≤ `time`, in time order.
    func take(through time: Timestamp) -> [SensorValues] {
        let limit = time.nanoseconds
        var out: [SensorValues] = []
        while true {
            let (covered, over) = state.withLock { s -> (Bool, Bool) in
                while s.taken < s.current.instants.count, s.current.instants[s.taken].time.nanoseconds <= limit {
                    out.append(s.current.instants[s.taken])
                    s.taken += 1
                }
                // An instant after `time` is waiting, or the stretch reached past `time`: the
                // next one holds none of this poll's.
                let covered = s.taken < s.current.instants.count || s.current.through >= limit
                return (covered, s.finished && s.ready.isEmpty)
            }
            if covered || over { return out }
            made.wait()
            state.withLock { s in
                s.current = s.ready.removeFirst()
                s.taken = 0
            }
            room.signal()
        }
    }

    /// Ends the thread at its next stretch (the reader went).
    func stop() {
        state.withLock { $0.stopped = true }
        room.signal()
    }
}
