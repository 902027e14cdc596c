import SensorCore
import Testing

@testable import SensorLive

@Suite struct LiveStateTests {
    @Test func snapshotThenChangesGiveTheCurrentState() {
        var s = LiveState()
        s.apply(.hello(LiveHello(host: "h", pid: 1, started: 0)))
        let a = LiveSensor(id: "a", quantity: "temperature", unit: "°C", value: 1, time: 100)
        let b = LiveSensor(id: "b", quantity: "temperature", unit: "°C", value: 2, time: 100)
        let alert = LiveAlert(rule: "hot", sensor: "a", severity: "warning", state: .firing, since: 90)
        s.apply(
            .snapshot(
                LiveSnapshot(
                    sensors: [a, b], alerts: [alert], history: ["a": [LiveBucket(time: 100, min: 1, max: 1, last: 1)]]))
        )
        #expect(s.hasSnapshot && s.sensors.count == 2 && s.alerts.count == 1)
        var a2 = a
        a2.value = 3
        a2.time = 102
        var resolved = alert
        resolved.state = .ok
        s.apply(
            .change(
                LiveChange(
                    time: 102, sensors: [a2], alerts: [resolved],
                    silences: [LiveSilence(id: "x", starts: 0, ends: 200)], gone: ["b"])))
        #expect(s.sensors["a"]?.value == 3)
        #expect(s.sensors["b"] == nil && s.history["b"] == nil)
        #expect(s.alerts.isEmpty)
        #expect(s.silences.map(\.id) == ["x"])
        #expect(s.history["a"] == [LiveBucket(time: 100, min: 1, max: 3, last: 3)])
        s.apply(.error("bye"))
        #expect(s.error == "bye")
    }

    @Test func historyKeepsTenMinutes() {
        var buckets: [LiveBucket] = []
        for i in 0..<200 { LiveState.add(Double(i), at: Double(i * 5), to: &buckets) }
        #expect(buckets.count == LiveBucket.count)
        #expect(buckets.first?.time == 80 * 5 && buckets.last?.time == 199 * 5)
    }
}
