#if canImport(Glibc)
import Glibc
#endif
import SensorCore
import SensorNotify
import SensorTestKit
import Synchronization
@testable import SensorSystemd

/// A stand-in journal for sink tests: a real (unused) socket file whose presence the sink
/// checks, a send function that records fields and returns what the test sets, and a pipe
/// that catches the fallback stream.
final class FakeJournal: Sendable {
    private let directory = TemporaryDirectory(prefix: "sensorwatch-sink")
    var socketPath: String { directory.path("socket") }
    private let sent = Mutex<[[String]]>([])
    private let result = Mutex<Int32>(0)
    private let pipeFDs: (read: Int32, write: Int32)
    private let socketFD = Mutex<Int32>(-1)

    init() {
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0)
        // Non-blocking, so reading an empty pipe returns at once.
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        pipeFDs = (fds[0], fds[1])
    }

    deinit {
        removeSocket()
        close(pipeFDs.read)
        close(pipeFDs.write)
    }

    /// A sink wired to this fake; with `echo`, events the journal took go to the pipe too;
    /// `wake` is woken after each alert event the journal took.
    func sink(echo: Bool = false, wake: NotifyWakeSender? = nil) -> JournalAlertSink {
        JournalAlertSink(
            fallback: StreamAlertSink(fd: pipeFDs.write), socketPath: socketPath,
            echo: echo ? StreamAlertSink(fd: pipeFDs.write) : nil, wake: wake,
            send: { [self] fields in
                sent.withLock { $0.append(fields) }
                return result.withLock { $0 }
            })
    }

    /// Makes the socket file exist (journald "listens").
    func createSocket() {
        let fd = Self.boundDatagramSocket(at: socketPath)
        precondition(fd >= 0)
        socketFD.withLock { $0 = fd }
    }

    /// A datagram socket bound at `path`, or -1.
    static func boundDatagramSocket(at path: String) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { buf in
            for (i, b) in path.utf8.enumerated() { buf[i] = b }
        }
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if r != 0 {
            close(fd)
            return -1
        }
        return fd
    }

    /// Removes the socket file (journald "went away").
    func removeSocket() {
        unlink(socketPath)
        socketFD.withLock { if $0 >= 0 { close($0); $0 = -1 } }
    }

    /// What the next sends return (0, or a negative errno).
    func setResult(_ r: Int32) { result.withLock { $0 = r } }

    /// Fields of every send so far.
    var sends: [[String]] { sent.withLock { $0 } }

    /// Lines written to the fallback stream since the last call.
    func fallbackLines() -> [String] {
        var bytes: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(pipeFDs.read, &buf, buf.count)
            if n <= 0 { break }
            bytes += buf[..<n]
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
