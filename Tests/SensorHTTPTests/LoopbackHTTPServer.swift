#if canImport(Glibc)
import Glibc
#endif
import SensorRuntime
import Synchronization

/// A one-connection HTTP server on 127.0.0.1 for the poster's tests: it takes one request,
/// keeps what came, and answers with `response` (nil: never answers, for the timeout).
final class LoopbackHTTPServer: Sendable {
    /// The port the kernel gave.
    let port: UInt16
    private let listener: Int32
    private let taken = Taken()

    /// What the server thread hands the test: the request, and that it answered.
    private final class Taken: Sendable {
        let request = Mutex<String?>(nil)
        let answered = EventCount()
    }

    init(response: String?) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { a in
                bind(listener, a, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, a, &length) == 0
            }
        }
        guard bound else { throw ServerError(errno: errno) }
        port = UInt16(bigEndian: address.sin_port)
        try DetachedThread.start("test HTTP server") { [listener, taken] in
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            var request: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            // Headers, then as many body bytes as Content-Length says.
            while true {
                let n = read(fd, &buffer, buffer.count)
                if n <= 0 { break }
                request += buffer[0..<n]
                if let end = Self.headerEnd(request) {
                    let head = String(decoding: request[..<end], as: UTF8.self).lowercased()
                    let length =
                        head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                        .flatMap { Int($0.dropFirst("content-length:".count).trimmingPrefix(" ")) } ?? 0
                    if request.count - (end + 4) >= length { break }
                }
            }
            taken.request.withLock { $0 = String(decoding: request, as: UTF8.self) }
            if let response {
                let bytes = Array(response.utf8)
                _ = bytes.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count) }
                close(fd)
            } else {
                // Holds the connection without a word until the test is over.
                var one: UInt8 = 0
                _ = read(fd, &one, 1)
                close(fd)
            }
            taken.answered.increment()
        }
    }

    /// Where the blank line after the headers starts.
    private static func headerEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4)
        where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i
        }
        return nil
    }

    /// The request as it came (nil before one came).
    var request: String? { taken.request.withLock { $0 } }

    /// Waits until the request was taken and answered.
    func answered() async -> Bool { await taken.answered.until(1) }

    // shutdown first: it wakes the thread's accept, which would otherwise take the next
    // test's connection on a socket that reuses this descriptor's number.
    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// A port on 127.0.0.1 that nothing listens on (bound and let go).
    static func unusedPort() -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { a in
                bind(fd, a, length) == 0 && getsockname(fd, a, &length) == 0
            }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    struct ServerError: Error { let errno: Int32 }
}
