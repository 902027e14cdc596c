package import SensorRuntime
import Synchronization

/// Lines a test's services write as they start and stop, in order, with their count as an
/// event to wait for.
package final class LineLog: Sendable {
    private let lines = Mutex<[String]>([])
    /// The lines so far, for a test to wait for: `count.until(n)`.
    package let count = EventCount()

    package init() {}

    package func append(_ line: String) {
        lines.withLock { $0.append(line) }
        count.increment()
    }

    /// Every line so far.
    package var all: [String] { lines.withLock { $0 } }
}
