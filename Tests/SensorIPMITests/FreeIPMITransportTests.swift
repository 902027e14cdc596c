@testable import SensorIPMI
import Testing

/// FreeIPMI's timeouts as the transport sets them (its session timeout counts from the last
/// packet received, so the rest between polls is part of it).
@Suite struct FreeIPMITransportTests {
    @Test func aSessionRestingAWholeIntervalLongerThanTheTimeoutIsNotTimedOut() {
        let t = FreeIPMITransport.timeouts(timeout: .seconds(1), interval: .seconds(2))
        // A rest of 2 s between polls, then a call answered within its 1 s: 3 s at most.
        #expect(t.session == 3000)
        // A BMC that does not answer the open fails it within its 1 s.
        #expect(t.call == 1000)
        #expect(t.retransmission == 200)
    }

    @Test func aStallFailsTheTimeoutAfterThePollAndRetransmitsAtAFifthOfIt() {
        let t = FreeIPMITransport.timeouts(timeout: .seconds(5), interval: .seconds(10))
        #expect(t.session == 15000)
        #expect(t.retransmission == 1000)
        let short = FreeIPMITransport.timeouts(timeout: .milliseconds(3), interval: .milliseconds(500))
        #expect(short.session == 503)
        #expect(short.retransmission == 1)
    }
}
