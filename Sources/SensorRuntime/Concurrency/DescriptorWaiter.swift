import CLinux
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Waits until file descriptors are readable — the journal's inotify descriptor, a child's
/// pidfd, the signal pipe — on one thread of its own blocked in poll(2).
///
/// Not a dispatch source: libdispatch runs a source's handler on a worker thread, and the
/// first worker starts libdispatch's pool monitor, which then wakes the process every
/// second for good (a measured 1 wake-up a second of an idle notifier; see
/// ``DaemonExecutor``). Here the thread wakes only when a descriptor is readable or a wait
/// is added or cancelled, so an idle notifier does not wake at all. A waiting task resumes
/// on its own executor (the daemon's, by the executable's task executor preference).
public final class DescriptorWaiter: Sendable {
    /// What one parked task waits for.
    private struct Wait: Sendable {
        var fd: Int32
        /// What is waited for: POLLIN, or POLLOUT.
        var events: Int16
        /// Whether a ``nudge()`` ends this wait too.
        var nudgeable: Bool
    }

    private struct State {
        var waiters = ParkingLot<Wait>()
        var nudges: UInt64 = 0
    }

    private let state = Mutex(State())
    private let wake: Int32

    /// A waiter and its thread (blocked in poll(2) until the first wait).
    ///
    /// - Throws: ``SystemError`` when the thread could not be made: no wait
    ///   could ever end.
    public init() throws(SystemError) {
        wake = sw_wake_fd()
        try DetachedThread.start("waiting on descriptors") { [self] in loop() }
    }

    /// Returns once `fd` is readable; throws `CancellationError` when the task is cancelled
    /// first. Each call is one wait.
    ///
    /// - Parameter nudgedAfter: the ``nudges`` count the caller saw before it last looked
    ///   for work; the wait also ends at a later ``nudge()``, and at once when one came
    ///   since that count (so a nudge between the look and the wait is not missed). Nil:
    ///   only `fd` ends it.
    public func readable(_ fd: Int32, nudgedAfter: UInt64? = nil) async throws {
        try await wait(fd, for: Int16(POLLIN), nudgedAfter: nudgedAfter)
    }

    /// Returns once `fd` can be written to (or its reader is gone, which the write then
    /// says); throws `CancellationError` when the task is cancelled first: a child's
    /// standard input is written only as fast as the child reads it.
    public func writable(_ fd: Int32) async throws {
        try await wait(fd, for: Int16(POLLOUT), nudgedAfter: nil)
    }

    private func wait(_ fd: Int32, for events: Int16, nudgedAfter: UInt64?) async throws {
        let id = state.withLock { $0.waiters.ticket() }
        try await parkTask(
            park: { c in
                let parked = state.withLock { s -> Result<Void, any Error>? in
                    if let seen = nudgedAfter, s.nudges != seen { return .success(()) }
                    let wait = Wait(fd: fd, events: events, nudgeable: nudgedAfter != nil)
                    return s.waiters.park(id, wait, c) ? nil : .failure(CancellationError())
                }
                // The poll thread takes the new descriptor into its set.
                if parked == nil {
                    poke()
                    waitsBegun.increment()
                }
                return parked
            },
            cancel: { [self] in
                guard let gone = state.withLock({ $0.waiters.cancel(id) }) else { return nil }
                poke()
                return gone.continuation
            })
    }

    /// How many ``nudge()`` calls there have been: read before looking for work, passed to
    /// ``readable(_:nudgedAfter:)``.
    public var nudges: UInt64 { state.withLock { $0.nudges } }
    /// The same count, for a test to wait for: `nudged.until(n)`.
    package let nudged = EventCount()

    /// How many waits are in progress (for tests).
    var waitCount: Int { state.withLock { $0.waiters.parked.count } }
    /// How many waits have begun (parked) so far, for a test to wait for.
    package let waitsBegun = EventCount()

    /// Ends every nudgeable wait now, as if its descriptor were readable: the daemon's
    /// wake (``NotifyWakeSocket``) tells the journal followers that an entry is on its way,
    /// which journald itself tells readers only up to 250 ms later.
    public func nudge() {
        let resumed = state.withLock { s -> [CheckedContinuation<Void, any Error>] in
            s.nudges &+= 1
            return s.waiters.take(where: \.nudgeable).map(\.continuation)
        }
        nudged.increment()
        guard !resumed.isEmpty else { return }
        // The poll thread drops the resumed waits' descriptors from its set.
        poke()
        for c in resumed { c.resume() }
    }

    /// Makes the thread poll again with the current set.
    private func poke() {
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
    }

    /// The thread: poll the wake descriptor and every waited one, resume those readable.
    private func loop() {
        while true {
            let waiting = state.withLock { $0.waiters.parked.map { ($0.id, $0.payload.fd, $0.payload.events) } }
            var fds = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            fds += waiting.map { pollfd(fd: $0.1, events: $0.2, revents: 0) }
            let n = poll(&fds, nfds_t(fds.count), -1)
            if n < 0 { continue }
            if fds[0].revents != 0 {
                var count: UInt64 = 0
                _ = read(wake, &count, 8)
            }
            let ready = Set(zip(waiting, fds.dropFirst()).filter { $0.1.revents != 0 }.map { $0.0.0 })
            guard !ready.isEmpty else { continue }
            let resumed = state.withLock { s -> [CheckedContinuation<Void, any Error>] in
                s.waiters.takeTickets(ready).map(\.continuation)
            }
            for c in resumed { c.resume() }
        }
    }
}
