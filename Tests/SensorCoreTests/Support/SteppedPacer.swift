import Dispatch
import Synchronization
@testable import SensorCore

/// A pacer whose time the test sets; a sleeping poll thread stays asleep until `wake()`.
final class SteppedPacer: PollPacer {
    private let time = Mutex(Timestamp(nanoseconds: 0))
    private let woken = DispatchSemaphore(value: 0)

    var now: Timestamp { time.withLock { $0 } }

    /// Moves the run time to `seconds`.
    func set(seconds: Double) { time.withLock { $0 = Timestamp(nanoseconds: Int64(seconds * 1e9)) } }

    func sleep(until deadline: Timestamp) { woken.wait() }

    func wake() { woken.signal() }
}
