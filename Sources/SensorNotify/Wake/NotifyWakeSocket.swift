import CLinux
import Glibc
public import SensorRuntime

#if canImport(Glibc)
#endif

/// `notify`'s side of the daemon's wake (``NotifyWakeSender``): a datagram socket whose
/// every datagram nudges the journal followers' waits (``DescriptorWaiter/nudge()``).
///
/// Why: journald tells a journal's readers of new entries through inotify, but coalesces
/// that notice for up to 250 ms after an entry (its post-change timer, for every priority),
/// so an alert waited on that way reached an exec target after up to ~300 ms (p99 measured
/// 253–362 ms at 10 events/s, bench/notify.sh). The daemon's wake comes right after its
/// journal write. The entry is then usually in the journal file already, but journald may
/// not have taken it yet: the followers are nudged again ``echoes`` later, so a wake that
/// came first still finds the entry well before journald's own notice.
///
/// Anyone can send to the socket (the daemon is another dynamic user, so it is 0666,
/// docs/decisions.md): after a wake the listener pauses before it looks at the socket
/// again, ``shortestPause`` doubling up to ``longestPause`` while datagrams keep coming, and
/// drains what came meanwhile as one wake. A flood costs at most a few nudges a second.
public final class NotifyWakeSocket: Sendable {
    /// Where the daemon sends its wakes: the runtime directory of sensorwatch-notify.service.
    public static let defaultPath = "/run/sensorwatch-notify/wake"

    /// After a wake, the followers are nudged again this long after it, in case journald
    /// had not written the entry when the wake came (it does so within a millisecond on a
    /// quiet machine, a few under load).
    public static let echoes: [Duration] = [.milliseconds(5), .milliseconds(25), .milliseconds(100)]

    /// The pause after a wake before the socket is read again: the first echo's delay, so
    /// the daemon's wake in a burst of alerts is late by no more than journald would be.
    public static let shortestPause: Duration = .milliseconds(5)
    /// The longest pause, reached after five busy pauses in a row: well within journald's
    /// own 250 ms, so even during a flood an alert comes sooner than without the wake.
    public static let longestPause: Duration = .milliseconds(100)

    /// How a socket that could not be made is said: `cannot listen for the daemon's wakes at
    /// PATH: Permission denied`.
    public static let listening = SystemError.Operation.phrased("listen", as: "cannot listen for the daemon's wakes at")

    private let fd: Int32
    private let path: String
    /// The socket file's device and inode, so a stop removes only its own file (not that of
    /// a second notify that took the path over meanwhile).
    private let file: (dev_t, ino_t)
    private let waiter: DescriptorWaiter

    /// Binds the socket at `path` (its directory made if missing), replacing a stale one.
    ///   - waiter: the waiter of the journal followers to nudge.
    public init(path: String = NotifyWakeSocket.defaultPath, waiter: DescriptorWaiter) throws(SystemError) {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !directory.isEmpty, mkdir(directory, 0o755) != 0, errno != EEXIST {
            throw SystemError(Self.listening, path: path, errno: errno)
        }
        let fd = sw_wake_listen(path, 0o666)
        guard fd >= 0 else { throw SystemError(Self.listening, path: path, errno: -fd) }
        self.fd = fd
        self.path = path
        self.waiter = waiter
        file = Self.identity(path) ?? (0, 0)
    }

    deinit {
        Glibc.close(fd)
        if let now = Self.identity(path), now == file { unlink(path) }
    }

    private static func identity(_ path: String) -> (dev_t, ino_t)? {
        var info = stat()
        return lstat(path, &info) == 0 ? (info.st_dev, info.st_ino) : nil
    }

    /// Nudges the followers at every wake (and ``echoes`` after it), coalescing the wakes
    /// that come within a pause, until cancelled.
    @DaemonActor
    public func run<C: RunClock>(clock: C) async {
        var echo: Task<Void, Never>?
        defer { echo?.cancel() }
        var pause = Duration.zero
        while true {
            do {
                if pause == .zero { try await waiter.readable(fd) } else { try await clock.sleep(for: pause) }
            } catch { return }
            let drained = sw_wake_drain(fd)
            if pause != .zero, drained == 0 {
                // The end of a flood: one last look, for a daemon's wake that came in its
                // last pause before journald had taken the entry (no echoes ran for it).
                if pause > Self.shortestPause { waiter.nudge() }
                pause = .zero
                continue
            }
            // Echoes follow a wake after a quiet spell, the daemon's as a rule; while wakes
            // keep coming each pause's end is the next look, so a flood costs one nudge a pause.
            let afterQuiet = pause == .zero
            pause = afterQuiet ? Self.shortestPause : min(pause * 2, Self.longestPause)
            waiter.nudge()
            guard afterQuiet else { continue }
            echo?.cancel()
            echo = Task(executorPreference: DaemonActor.taskExecutor) { [waiter] in
                let start = clock.now
                for delay in Self.echoes {
                    do { try await clock.sleep(until: start.advanced(by: delay), tolerance: nil) } catch { return }
                    waiter.nudge()
                }
            }
        }
    }
}
