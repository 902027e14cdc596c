import CurlLoader
public import SensorNotify
public import SensorRuntime

/// POSTs with libcurl (loaded on first use, only by `notify`), one thread per request.
///
/// libcurl's easy interface blocks; a thread of its own per request keeps the main actor
/// (every lane, the signals) free, and requests are rare (an event, a minute's re-send).
/// The timeout is waited on the injected clock: when it ends first, or the task is
/// cancelled, the result is given at once and the transfer told to give up (its thread
/// ends on its own shortly after). libcurl's own timeout, a little longer, is a backstop.
public struct CurlHTTPPoster<C: RunClock>: HTTPPoster {
    private let clock: C

    /// A poster that waits on `clock` for the timeout.
    public init(clock: C) { self.clock = clock }

    /// One POST of `json` to `url`, given up after `timeout`.
    public func post(url: String, json: String, timeout: Duration) async -> HTTPPostResult {
        await send("POST", url: url, json: json, timeout: timeout)
    }

    /// One request of `method` (POST with `json`, DELETE without a body), answered within `timeout` or given up.
    public func send(_ method: String, url: String, json: String, timeout: Duration) async -> HTTPPostResult {
        let request = CurlRequest(
            method: method, url: url, json: json, timeoutMilliseconds: Int(timeout.nanoseconds / 1_000_000) + 1000)
        let answer = await withTimer({ [clock] in (try? await clock.sleep(for: timeout)) != nil }) {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (c: CheckedContinuation<HTTPPostResult, Never>) in
                    request.start(c)
                }
            } onCancel: {
                request.finish(.noAnswer("stopped"))
            }
        }
        return answer ?? .noAnswer("no answer within \(NumberText.duration(seconds: timeout.seconds))")
    }
}
