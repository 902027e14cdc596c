import SensorCore
@testable import SensorLive
import SensorRuntime
import Testing

@DaemonActor
@Suite struct LiveClientTests {
    @Test func aSlowClientGetsOneChangeWithTheLatestState() throws {
        let data = SensorData()
        let list = SensorList(
            source: "sim",
            sensors: [SensorInfo(id: "sim:a", quantity: .temperature), SensorInfo(id: "sim:b", quantity: .temperature)])
        var table = LiveSensorTable(started: 0)
        let client = LiveClient(fd: -1)
        client.startStreaming()
        let alert = LiveAlert(rule: "hot", sensor: "sim:a", severity: "warning", state: .pending, since: 1)
        for (i, v) in [30.0, 31, 32, 33].enumerated() {
            data.commit(PollCycle(list: list, readings: SensorValues(time: .seconds(Double(i)), values: [v, 1])))
            var a = alert
            a.state = i < 3 ? .pending : .firing
            client.note(table.update(data.readings, faulty: data.faulty), alerts: [a], silences: i == 1)
        }
        let change = try #require(client.takeChange(time: 9, table: table, silences: []))
        #expect(change.sensors.map(\.id) == ["sim:a", "sim:b"])
        #expect(change.sensors.first?.value == 33)
        #expect(change.alerts.map(\.state) == [.firing] && change.alerts.first?.value == 33)
        #expect(change.silences == [])
        #expect(change.appeared == ["sim:a", "sim:b"])
        #expect(client.takeChange(time: 10, table: table, silences: []) == nil)
    }

    @Test func aSubscriptionKeepsOnlyItsSensorsAndTheirAlerts() throws {
        let client = LiveClient(fd: -1)
        client.subscription = LiveSubscription(sensors: [try Glob("sim:a*")])
        client.startStreaming()
        client.note(
            LiveSensorTable.Delta(changed: ["sim:a1", "sim:b1"], appeared: [], gone: ["sim:b2", "sim:a2"]),
            alerts: [LiveAlert(rule: "r", sensor: "sim:b1", severity: "info", state: .firing, since: 0)],
            silences: false)
        #expect(client.dirtySensors == ["sim:a1"] && client.gone == ["sim:a2"] && client.dirtyAlerts.isEmpty)
    }

    @Test func goneThenBackBeforeSendingIsNeitherGoneNorAppeared() {
        let client = LiveClient(fd: -1)
        client.startStreaming()
        client.note(LiveSensorTable.Delta(changed: [], appeared: [], gone: ["x"]), alerts: [], silences: false)
        client.note(LiveSensorTable.Delta(changed: ["x"], appeared: ["x"], gone: []), alerts: [], silences: false)
        #expect(client.gone.isEmpty && client.appeared.isEmpty && client.dirtySensors == ["x"])
    }

    @Test func beforeTheSnapshotNothingIsCollected() {
        let client = LiveClient(fd: -1)
        client.note(LiveSensorTable.Delta(changed: ["x"]), alerts: [], silences: true)
        #expect(!client.hasChange)
    }
}
