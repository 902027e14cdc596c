import CurlLoader
import Glibc
import SensorConfig
import SensorNotify
import SensorRuntime
import Synchronization

#if canImport(Glibc)
#endif

/// One request: its thread's inputs and outputs, and the continuation resumed once, by the
/// answer, the timeout or a cancellation, whichever comes first.
final class CurlRequest: Sendable {
    private struct State {
        var continuation: CheckedContinuation<HTTPPostResult, Never>?
        var early: HTTPPostResult?
        var done = false
    }

    let method: String
    let url: String
    let json: String
    let timeoutMilliseconds: Int
    /// Read by libcurl's progress callback through sw_curl_abort's atomics only.
    nonisolated(unsafe) let abortFlag: UnsafeMutablePointer<Int32>
    private let state = Mutex(State())

    init(method: String = "POST", url: String, json: String, timeoutMilliseconds: Int) {
        self.method = method
        self.url = url
        self.json = json
        self.timeoutMilliseconds = timeoutMilliseconds
        abortFlag = .allocate(capacity: 1)
        abortFlag.initialize(to: 0)
    }

    deinit { abortFlag.deallocate() }

    /// Starts the request's thread, unless it already ended (cancelled before it started).
    func start(_ c: CheckedContinuation<HTTPPostResult, Never>) {
        let early = state.withLock { s -> HTTPPostResult? in
            if let early = s.early { return early }
            s.continuation = c
            return nil
        }
        if let early { return c.resume(returning: early) }
        do {
            try DetachedThread.start("an HTTP request") { [self] in finish(perform()) }
        } catch {
            finish(.noAnswer(error.description))
        }
    }

    /// Gives `result`, the first time only; later ones (the thread after a timeout) are dropped.
    func finish(_ result: HTTPPostResult) {
        let c = state.withLock { s -> CheckedContinuation<HTTPPostResult, Never>? in
            guard !s.done else { return nil }
            s.done = true
            if s.continuation == nil { s.early = result }
            defer { s.continuation = nil }
            return s.continuation
        }
        sw_curl_abort(abortFlag)
        c?.resume(returning: result)
    }

    /// The blocking transfer, on the request's thread.
    private func perform() -> HTTPPostResult {
        var status = 0
        var body = [CChar](repeating: 0, count: 512)
        var error = [CChar](repeating: 0, count: 512)
        let bytes = Array(json.utf8)
        // The user information goes as basic authentication, not in the URL, so nothing
        // curl reports about the URL can hold the password.
        let target = CredentialedURL(url)
        let r = bytes.withUnsafeBufferPointer { jsonBuffer in
            jsonBuffer.withMemoryRebound(to: CChar.self) { j in
                sw_curl_post_json(
                    method, target.address, target.user, target.password, j.baseAddress, j.count, timeoutMilliseconds,
                    abortFlag, &status, &body, body.count, &error,
                    error.count)
            }
        }
        func text(_ chars: [CChar]) -> String {
            String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        guard r == 0 else { return .noAnswer(text(error)) }
        let answer = text(body).split(separator: "\n").first.map(String.init) ?? ""
        return .answered(status: status, body: String(answer.prefix(200)))
    }
}
