import Dispatch
import Synchronization

/// Passes values to a slow consumer (the state file) on a thread of its own, keeping only
/// the latest: a value submitted while an older one is still being written replaces any
/// value still waiting, so a burst of alert changes costs one write, not one per change.
///
/// The rule loop never waits for the disk. ``flush()`` is a barrier: when it returns, the
/// last value submitted before it was called is written (by it, or by the writer's thread
/// before it). ``finish()`` flushes and ends the thread; call it once the last value is in
/// (at stop), or the thread and the writer live on. Values are written one at a time, in
/// submission order, never an older one after a newer one.
final class LatestValueWriter<Value: Sendable>: Sendable {
    private struct Pending {
        var value: Value?
        /// No thread writes any more (finished, or none could be started): the caller does.
        var finished = false
        var threadRunning = false
        /// Callers of ``close()`` waiting for the thread to end.
        var closers: [CheckedContinuation<Void, Never>] = []
    }

    private let write: @Sendable (Value) -> Void
    private let pending = Mutex(Pending())
    /// Held from taking the pending value until it is written, so whoever takes a value has
    /// written it before anyone else (a flush) can see the slot empty and return.
    private let writing = Mutex(())
    private let wake = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)

    /// - Parameter write: called with each value to keep, on the writer's thread (or on the
    ///   caller of ``flush()``/``finish()``), one call at a time.
    init(_ write: @escaping @Sendable (Value) -> Void) {
        self.write = write
        pending.withLock { $0.threadRunning = true }
        let started = PollThread.start { [self] in
            while true {
                wake.wait()
                if writePending() { break }
            }
            let closers = pending.withLock { p -> [CheckedContinuation<Void, Never>] in
                p.threadRunning = false
                defer { p.closers = [] }
                return p.closers
            }
            for c in closers { c.resume() }
            ended.signal()
        }
        if !started {
            pending.withLock { $0.threadRunning = false; $0.finished = true }
        }
    }

    /// Whether the writer's thread is still running (false once ``finish()`` returned).
    var isRunning: Bool { pending.withLock { $0.threadRunning } }

    /// Hands over the newest value; returns at once. After ``finish()``, writes it on the
    /// calling thread instead (nothing submitted is ever dropped).
    func submit(_ value: Value) {
        let threadless = pending.withLock { p -> Bool in
            p.value = value
            return p.finished
        }
        if threadless { writePending() } else { wake.signal() }
    }

    /// Writes the waiting value now, on the calling thread, after any write in progress.
    func flush() {
        writePending()
    }

    /// Writes the waiting value and ends the writer's thread; returns once it has ended.
    func finish() {
        guard markFinished() else { return }
        wake.signal()
        ended.wait()  // the thread writes what is pending, then ends
    }

    /// ``finish()`` without blocking the caller's thread: the writer's thread writes what is
    /// pending and ends, and the caller is resumed then. The daemon's only executor runs the
    /// caller (``AlertLedger`` at stop), so it must not wait for the disk in a semaphore.
    /// Without a thread (none could be started, or already finished), writes here.
    func close() async {
        guard markFinished() else { return }
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let running = pending.withLock { p -> Bool in
                if p.threadRunning { p.closers.append(c) }
                return p.threadRunning
            }
            if running { wake.signal() } else { c.resume() }
        }
    }

    /// Marks the writer finished; returns whether a thread is left to end. When none is (it
    /// could not start, or was ended before), writes what is pending here instead.
    private func markFinished() -> Bool {
        let waitForThread = pending.withLock { p -> Bool in
            defer { p.finished = true }
            return !p.finished
        }
        if !waitForThread { writePending() }
        return waitForThread
    }

    /// Takes the pending value and writes it under one lock; returns whether the writer is
    /// finished (the thread's signal to end).
    @discardableResult
    private func writePending() -> Bool {
        writing.withLock { _ in
            let (value, finished) = pending.withLock { p -> (Value?, Bool) in
                defer { p.value = nil }
                return (p.value, p.finished)
            }
            if let value { write(value) }
            return finished
        }
    }
}
