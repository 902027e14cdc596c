public import SensorRuntime
import Synchronization

/// Keeps every entry, for tests to read back.
public final class MemoryLog: DaemonLog {
    private let kept = Mutex<[LogEntry]>([])

    /// A log that holds nothing yet.
    public init() {}

    /// How many entries have been written (tests wait for them: `written.until(n)`).
    package let written = EventCount()

    /// Keeps the entry and counts it.
    public func write(_ entry: LogEntry) {
        kept.withLock { $0.append(entry) }
        written.increment()
    }

    /// Every entry so far, in order.
    public var entries: [LogEntry] { kept.withLock { $0 } }

    /// Every entry so far as its `<N>message` text (``PriorityLine``).
    public var lines: [String] { entries.map(PriorityLine.text(for:)) }
}
