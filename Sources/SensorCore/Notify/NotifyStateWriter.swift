import CLinux
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Writes `notify.json` (``NotifyStateStore``) on a thread of its own, so a delivery does not
/// wait for the disk: the notifier hands over each new state (``submit(_:)``) and goes on to
/// the next event while the last one's cursor is made durable.
///
/// Why: the durable write (write, fsync, rename, fsync of the directory) took about 1.6 ms
/// of the 3.6 ms an event of a backlog cost on ext4 (279 events/s against 498 with the file
/// on a tmpfs, bench/notify.sh), all of it spent waiting. A state submitted while a write
/// runs waits for it; several submitted meanwhile are written once, as the latest. A crash
/// loses at most the states not yet written: the events delivered in those few
/// milliseconds are sent again, as an event in flight at a crash is (SPEC §17).
///
/// Write failures are logged once each (and their end once); the thread sleeps in a read
/// of its pipe between writes, so an idle notifier does not wake.
public final class NotifyStateWriter: Sendable {
    private struct State {
        var pending: NotifyStateFile?
        var busy = false
        var started = false
        /// Written by the submitting caller: the thread could not be started.
        var inline = false
        var flushes: [CheckedContinuation<Void, Never>] = []
        /// How the last write failed; nil when it did not.
        var problem: AtomicFileWriter.Failure?
    }

    private let store: NotifyStateStore
    private let log: any DaemonLog
    private let state = Mutex(State())
    /// Read end (the thread waits in it) and write end (a byte per submit).
    private let pipe: (read: Int32, write: Int32)

    /// - Parameters:
    ///   - store: the file.
    ///   - log: where write failures go.
    public init(store: NotifyStateStore, log: any DaemonLog) {
        self.store = store
        self.log = log
        var fds: [Int32] = [-1, -1]
        if sw_pipe_cloexec(&fds, 0) != 0 { fds = [-1, -1] }
        pipe = (fds[0], fds[1])
    }

    /// Hands over `state` to be written; returns at once.
    public func submit(_ new: NotifyStateFile) {
        let (start, inline) = state.withLock { s -> (Bool, Bool) in
            s.pending = new
            if s.inline { return (false, true) }
            defer { s.started = true }
            return (!s.started, false)
        }
        if inline { return drain() }
        if start, !startThread() {
            // No thread (or no pipe): written here, waiting for the disk as before.
            state.withLock { $0.inline = true }
            return drain()
        }
        // Non-blocking: a full pipe already holds a byte the thread has yet to read.
        var byte: UInt8 = 1
        _ = write(pipe.write, &byte, 1)
    }

    /// Returns once every state submitted so far is written (or its write failed).
    public func flush() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { s -> Bool in
                if s.pending == nil, !s.busy { return true }
                s.flushes.append(c)
                return false
            }
            if idle { c.resume() }
        }
    }

    /// Starts the thread; false when there is no pipe or no thread.
    private func startThread() -> Bool {
        guard pipe.read >= 0, fcntl(pipe.write, F_SETFL, O_NONBLOCK) == 0 else { return false }
        return PollThread.start { [self] in
            var bytes = [UInt8](repeating: 0, count: 64)
            while true {
                let n = bytes.withUnsafeMutableBytes { read(pipe.read, $0.baseAddress, $0.count) }
                if n < 0, errno == EINTR { continue }
                if n <= 0 { return }
                drain()
            }
        }
    }

    /// Writes the pending state until none is left, then resumes the flushes waiting.
    private func drain() {
        while true {
            let next = state.withLock { s -> NotifyStateFile? in
                defer { s.pending = nil }
                s.busy = s.pending != nil
                return s.pending
            }
            guard let next else { break }
            do {
                try store.save(next)
                report(nil)
            } catch {
                report(error)
            }
        }
        let flushes = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            guard s.pending == nil else { return [] }
            defer { s.flushes = [] }
            return s.flushes
        }
        for c in flushes { c.resume() }
    }

    /// Logs a failure unless the last write failed the same way (a unique temporary's name
    /// differs each time, so the step and errno say whether it is the same), and the first
    /// success after failures.
    private func report(_ failure: AtomicFileWriter.Failure?) {
        let previous = state.withLock { s -> AtomicFileWriter.Failure? in
            defer { s.problem = failure }
            return s.problem
        }
        if let failure {
            guard failure.step != previous?.step || failure.errno != previous?.errno else { return }
            log.log(.warning, "cannot keep notification cursors: \(failure); a restart may send events again")
        } else if previous != nil {
            log.log(.notice, "notification cursors are kept again")
        }
    }
}
