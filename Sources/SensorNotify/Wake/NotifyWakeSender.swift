import CLinux

#if canImport(Glibc)
import Glibc
#endif
/// The daemon's side of the wake (SPEC §17, docs/decisions.md): after each alert entry it
/// sends an empty datagram to ``NotifyWakeSocket/defaultPath``, so a running `notify` reads
/// the journal at once instead of when journald tells its readers, which it does at most
/// every 250 ms. The datagram carries nothing: the alert itself is only in the journal.
///
/// Sending never waits and never fails loudly: no `notify` listening (no socket, or a stale
/// one) and a full queue (a wake is already pending) are the normal cases, and a lost wake
/// only delays delivery to journald's own notice. Thread-safe: one descriptor, `sendto`.
public final class NotifyWakeSender: Sendable {
    private let fd: Int32
    private let path: String

    /// - Parameter path: where `notify` listens.
    public init(path: String = NotifyWakeSocket.defaultPath) {
        self.path = path
        fd = sw_wake_socket()
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Wakes a listening `notify`, if there is one.
    public func send() {
        guard fd >= 0 else { return }
        _ = sw_wake_send(fd, path)
    }
}
