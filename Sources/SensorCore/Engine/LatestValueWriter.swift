import Dispatch
import Synchronization

/// Passes values to a slow consumer (the state file) on a thread of its own, keeping only
/// the latest: a value submitted while an older one is still being written replaces any
/// value still waiting, so a burst of alert changes costs one write, not one per change.
///
/// The rule loop never waits for the disk; ``flush()`` (at stop) waits until the latest
/// value submitted is written. Values are written in submission order, never an older one
/// after a newer one.
final class LatestValueWriter<Value: Sendable>: Sendable {
    private let write: @Sendable (Value) -> Void
    private let waiting = Mutex<(generation: Int, value: Value?)>((0, nil))
    /// Serializes writes and remembers the generation written last.
    private let written = Mutex<Int>(0)
    private let wake = DispatchSemaphore(value: 0)

    /// - Parameter write: called with each value to keep, on the writer's thread (or on the
    ///   caller of ``flush()``), one call at a time.
    init(_ write: @escaping @Sendable (Value) -> Void) {
        self.write = write
        PollThread.start { [self] in
            while true {
                wake.wait()
                writeWaiting()
            }
        }
    }

    /// Hands over the newest value; returns at once.
    func submit(_ value: Value) {
        waiting.withLock { w in
            w.generation += 1
            w.value = value
        }
        wake.signal()
    }

    /// Writes the waiting value now, on the calling thread, after any write in progress.
    func flush() {
        writeWaiting()
        written.withLock { _ in }  // a write in progress on the writer's thread ends first
    }

    private func writeWaiting() {
        let taken = waiting.withLock { w -> (Int, Value)? in
            guard let value = w.value else { return nil }
            w.value = nil
            return (w.generation, value)
        }
        guard let (generation, value) = taken else { return }
        written.withLock { last in
            guard generation > last else { return }
            write(value)
            last = generation
        }
    }
}
