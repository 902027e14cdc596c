import SensorHTTP
import SensorNotify
import SensorRuntime
import Testing

/// notify's HTTP client against a real server on 127.0.0.1, through libcurl opened at run time.
@Suite(.serialized) struct CurlHTTPPosterTests {
    private let poster: CurlHTTPPoster<BootClock>

    init() throws { poster = CurlHTTPPoster(clock: try BootClock()) }

    @Test func aPostSendsItsJSONAndGivesTheAnswersStatusAndBody() async throws {
        let server = try LoopbackHTTPServer(
            response: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
        let result = await poster.post(
            url: "http://127.0.0.1:\(server.port)/api/v2/alerts", json: #"[{"labels":{"alertname":"hot"}}]"#,
            timeout: .seconds(10))
        #expect(result == .answered(status: 200, body: "ok"))
        #expect(result.outcome == .delivered)
        #expect(await server.answered())
        let request = try #require(server.request)
        #expect(request.hasPrefix("POST /api/v2/alerts HTTP/1.1\r\n"))
        #expect(request.lowercased().contains("content-type: application/json"))
        #expect(request.hasSuffix(#"[{"labels":{"alertname":"hot"}}]"#))
    }

    @Test func aServerErrorIsAnAnswerToRetry() async throws {
        let server = try LoopbackHTTPServer(
            response: "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 4\r\nConnection: close\r\n\r\nbusy")
        let result = await poster.send(
            "POST", url: "http://127.0.0.1:\(server.port)/", json: "{}", timeout: .seconds(10))
        #expect(result == .answered(status: 503, body: "busy"))
        #expect(result.outcome == .retry("HTTP 503: busy"))
    }

    @Test func aRefusedConnectionIsNoAnswerInWords() async throws {
        let port = LoopbackHTTPServer.unusedPort()
        let result = await poster.post(url: "http://127.0.0.1:\(port)/", json: "{}", timeout: .seconds(10))
        guard case .noAnswer(let why) = result else {
            Issue.record("expected no answer, got \(result)")
            return
        }
        #expect(!why.isEmpty)
        #expect(!why.contains("errno"))
    }

    @Test func aServerThatNeverAnswersEndsAtTheTimeout() async throws {
        let server = try LoopbackHTTPServer(response: nil)
        let result = await poster.post(url: "http://127.0.0.1:\(server.port)/", json: "{}", timeout: .milliseconds(300))
        #expect(result == .noAnswer("no answer within 300ms"))
    }
}
