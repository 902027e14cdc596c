import SensorCore
import Testing

@testable import SensorLive

/// The stream's alert is made from the status file's: the same alert, in the stream's words.
@Suite struct LiveAlertRecordTests {
    static func status(_ state: StatusAlert.State, threshold: Double) -> StatusAlert {
        StatusAlert(
            rule: "hot", sensor: "sim:cpu", severity: .critical, state: state, since: 90, value: 95,
            threshold: threshold, condition: .above, limit: "crit", within: nil, unit: "°C")
    }

    @Test func aFiringStatusAlertIsTheSameAlertOnTheStreamSilencedAsGiven() {
        let alert = LiveAlert(Self.status(.firing, threshold: 80), silenced: 200)
        #expect(
            alert
                == LiveAlert(
                    rule: "hot", sensor: "sim:cpu", severity: "critical", state: .firing, since: 90, value: 95,
                    threshold: 80, silenced: 200))
    }

    @Test func aPendingAlertStaysPendingAndAThresholdThatIsNoNumberIsLeftOut() {
        let alert = LiveAlert(Self.status(.pending, threshold: .nan), silenced: nil)
        #expect(alert.state == .pending && alert.threshold == nil && alert.silenced == nil)
    }
}
