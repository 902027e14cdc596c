import CLinux
@testable import SensorLive

#if canImport(Glibc)
import Glibc
#endif

/// A client of the stream for tests: a blocking Unix socket whose reads give up after 10 s
/// (a test that would hang fails instead).
final class StreamTestClient {
    let fd: Int32
    private var lines = LiveLineBuffer(limit: LiveMessage.maximumLineBytes)

    init?(path: String, receiveBuffer: Int32? = nil) {
        let fd = sw_stream_connect(path)
        guard fd >= 0 else { return nil }
        var limit = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, 4) }
        self.fd = fd
    }

    deinit { close(fd) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The next message; nil at the end of the stream or after 10 s.
    func next() -> LiveMessage? {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            if let line = try? lines.nextLine() { return try? LiveMessage.decode(line) }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return nil }
            try? lines.append(chunk[0..<n])
        }
    }

    /// Whether the daemon closed the connection (reads what is left first).
    func ended() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return true }
            if n < 0 { return false }
        }
    }

    /// hello, then the snapshot.
    func start() -> LiveSnapshot? {
        guard case .hello? = next(), case .snapshot(let s)? = next() else { return nil }
        return s
    }
}
