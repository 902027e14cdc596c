import Testing
import SensorMQTT

/// The broker gone: 1 s doubling to 60 s, back to 1 s after a connection (SPEC §24).
struct ReconnectBackoffTests {
    @Test func doublesToAMinuteAndStartsOverAfterASuccess() {
        var backoff = ReconnectBackoff()
        let waits = (0..<9).map { _ in backoff.failed() }
        #expect(waits == [1, 2, 4, 8, 16, 32, 60, 60, 60].map { Duration.seconds($0) })
        backoff.succeeded()
        #expect(backoff.failed() == .seconds(1))
    }
}
