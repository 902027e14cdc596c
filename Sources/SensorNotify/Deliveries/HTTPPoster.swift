/// Sends one HTTP POST: the seam between Alertmanager delivery (pure decisions, in
/// SensorCore) and the HTTP client (libcurl, loaded only by `notify`).
///
/// Contract: ``post(url:json:timeout:)`` makes one request with a JSON body and returns its
/// status, or why there was none; it never retries, gives up after `timeout`, and when its
/// task is cancelled returns promptly (the answer then ignored).
public protocol HTTPPoster: Sendable {
    /// One POST of `json` to `url`.
    func post(url: String, json: String, timeout: Duration) async -> HTTPPostResult

    /// One request of `method`: POST with `json` as its body, another (DELETE) without a body.
    func send(_ method: String, url: String, json: String, timeout: Duration) async -> HTTPPostResult
}

extension HTTPPoster {
    /// A poster that knows only POST.
    public func send(_ method: String, url: String, json: String, timeout: Duration) async -> HTTPPostResult {
        guard method == "POST" else { return .noAnswer("\(method) is not supported") }
        return await post(url: url, json: json, timeout: timeout)
    }
}

/// How one POST ended.
public enum HTTPPostResult: Sendable, Hashable {
    /// An answer with this status and the start of its body (for the log).
    case answered(status: Int, body: String)
    /// No answer: no connection, a timeout, a TLS failure; the reason in words.
    case noAnswer(String)

    /// The delivery outcome of SPEC §17: 2xx delivered; 5xx, 408, 429 or no answer retried;
    /// other statuses failed.
    public var outcome: DeliveryOutcome {
        switch self {
        case .answered(let status, _) where (200..<300).contains(status): return .delivered
        case .answered(let status, let body) where status >= 500 || status == 408 || status == 429:
            return .retry("HTTP \(status)" + (body.isEmpty ? "" : ": " + body))
        case .answered(let status, let body): return .failed("HTTP \(status)" + (body.isEmpty ? "" : ": " + body))
        case .noAnswer(let why): return .retry(why)
        }
    }
}
