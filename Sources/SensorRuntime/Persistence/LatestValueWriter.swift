import Dispatch
import Synchronization

/// Passes values to a slow consumer (a state file) on a thread of its own, keeping only the
/// latest: a value submitted while an older one is still being written replaces any value
/// still waiting, so a burst of changes costs one write, not one per change.
///
/// Both kept files go through it: `state.json` (``AlertLedger``: the rule loop never waits
/// for the disk) and `notify.json` (``Notifier``: a durable write took about 1.6 of the
/// 3.6 ms an event of a backlog cost on ext4, all of it waiting; bench/README.md). A crash
/// loses at most the values not yet written.
///
/// ``flush()`` returns once every value submitted before it was called is written;
/// ``close()`` flushes and ends the thread. Values are written one at a time, in
/// submission order, never an older one after a newer one. The thread sleeps on a
/// semaphore between writes: an idle writer wakes nothing. Without a thread (none could be
/// made: ``threadFailure``; or after ``close()``) each value is written by its submitter,
/// which then waits for the disk: nothing submitted is ever dropped.
package final class LatestValueWriter<Value: Sendable>: Sendable {
    private struct State {
        var pending: Value?
        /// A write is in progress (its value taken from `pending`).
        var busy = false
        /// Closed, or no thread: submitters write.
        var inline = false
        var threadRunning = false
        var flushes: [CheckedContinuation<Void, Never>] = []
        var closers: [CheckedContinuation<Void, Never>] = []
        var threadFailure: SystemError?
    }

    private let write: @Sendable (Value) -> Void
    private let state = Mutex(State())
    /// Held while values are written, so two writers (the thread and a submitter writing
    /// inline after a close) never write at once or out of order.
    private let writing = Mutex(())
    private let wake = DispatchSemaphore(value: 0)
    /// Why there is no thread, when there is none.
    package var threadFailure: SystemError? { state.withLock { $0.threadFailure } }

    /// - Parameters:
    ///   - purpose: what is written, as a failure to start the thread names it.
    ///   - write: called with each value to keep, on the writer's thread (or a submitter's),
    ///     one call at a time; it reports its own failures.
    package init(_ purpose: String, write: @escaping @Sendable (Value) -> Void) {
        self.write = write
        state.withLock { $0.threadRunning = true }
        do {
            try DetachedThread.start("writing \(purpose)") { [self] in run() }
        } catch {
            state.withLock { s in
                s.threadRunning = false
                s.inline = true
                s.threadFailure = error
            }
        }
    }

    /// Whether the writer's thread is running (false after ``close()`` returned).
    var isRunning: Bool { state.withLock { $0.threadRunning } }

    /// Hands over the newest value; returns at once (after writing it, without a thread).
    package func submit(_ value: Value) {
        let inline = state.withLock { s -> Bool in
            s.pending = value
            return s.inline
        }
        if inline { drain() } else { wake.signal() }
    }

    /// Returns once every value submitted so far is written (or its write failed).
    package func flush() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { s -> Bool in
                if s.pending == nil, !s.busy { return true }
                s.flushes.append(c)
                return false
            }
            if idle { c.resume() }
        }
    }

    /// Writes what is pending and ends the thread; returns once it has ended. Later values
    /// are written by their submitters.
    package func close() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let running = state.withLock { s -> Bool in
                s.inline = true
                if s.threadRunning { s.closers.append(c) }
                return s.threadRunning
            }
            if running {
                wake.signal()
            } else {
                drain()
                c.resume()
            }
        }
    }

    /// The thread: writes what is pending at each signal, until closed.
    private func run() {
        while true {
            wake.wait()
            drain()
            let closers = state.withLock { s -> [CheckedContinuation<Void, Never>]? in
                guard s.inline, s.pending == nil else { return nil }
                s.threadRunning = false
                defer { s.closers = [] }
                return s.closers
            }
            if let closers {
                for c in closers { c.resume() }
                return
            }
        }
    }

    /// Writes the pending value until none is left, then resumes the flushes waiting.
    private func drain() {
        writing.withLock { _ in
            while let next = state.withLock({ s -> Value? in
                defer { s.pending = nil }
                s.busy = s.pending != nil
                return s.pending
            }) {
                write(next)
            }
        }
        let flushes = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            guard s.pending == nil, !s.busy else { return [] }
            defer { s.flushes = [] }
            return s.flushes
        }
        for c in flushes { c.resume() }
    }
}
