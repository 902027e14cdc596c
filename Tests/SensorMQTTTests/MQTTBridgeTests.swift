import Testing
import SensorCore
import SensorMQTT
import SensorRuntime
/// What the bridge publishes for the daemon's stream and the broker's connection (SPEC §24).
struct MQTTBridgeTests {
    static let topics = MQTTTopics(prefix: "sw", host: "h", discoveryPrefix: "ha")
    static let cpu = SensorInfo(id: "sim:cpu", label: "CPU", quantity: .temperature)
    static let fan = SensorInfo(id: "sim:fan", label: "", quantity: .fan)

    static func bridge(every: Duration = .seconds(10), qos: Int = 0, discovery: Bool = true) -> MQTTBridge {
        let rule = Rule(
            name: "cpu-hot", selector: SensorSelector(sensor: try! Glob("sim:cpu")),
            condition: .above(80, hysteresis: 0),
            severity: .critical, annotations: RuleAnnotations(runbook: "https://wiki/cpu"))
        let topics = MQTTTopics(prefix: "sw", host: "h", discoveryPrefix: discovery ? "ha" : nil)
        return MQTTBridge(
            settings: .init(
                topics: topics, device: .init(topics: topics, hostName: "h", version: "0.1.0"), qos: qos, every: every,
                rules: [rule], interval: { _ in .seconds(1) }))
    }

    static func firing(_ on: Bool, value: Double? = 91) -> BridgeAlert {
        BridgeAlert(
            rule: "cpu-hot", sensor: "sim:cpu", severity: "critical", firing: on, since: "2026-12-07T09:00:00Z",
            value: value, threshold: 80)
    }

    /// `topic payload` of each message, retained ones marked `(r)`.
    static func lines(_ messages: [MQTTMessage]) -> [String] {
        messages.map {
            "\($0.topic) \($0.payload.hasPrefix("{") ? "{…}" : $0.payload)\($0.retain ? " (r)" : "") q\($0.qos)"
        }
    }

    @Test func aSnapshotOnAConnectionPublishesEverything() {
        var bridge = Self.bridge()
        #expect(bridge.brokerConnected(now: .zero).map(\.payload) == ["offline"])
        let out = bridge.snapshot(
            sensors: [BridgeSensor(info: Self.cpu, value: 45.5), BridgeSensor(info: Self.fan, value: 1200)], alerts: [],
            now: .zero)
        #expect(
            Self.lines(out) == [
                "sw/h/status online (r) q1",
                "ha/sensor/sensorwatch_h/sim_cpu/config {…} (r) q1",
                "ha/binary_sensor/sensorwatch_h/cpu-hot__sim_cpu/config {…} (r) q1",
                "ha/sensor/sensorwatch_h/sim_fan/config {…} (r) q1",
                "sw/h/sensor/sim_cpu/state 45.5 (r) q0",
                "sw/h/sensor/sim_fan/state 1200 (r) q0",
                "sw/h/alert/cpu-hot__sim_cpu/state OFF (r) q1",
                "sw/h/alert/cpu-hot__sim_cpu/attributes {…} (r) q1",
            ])
        #expect(out[7].payload.contains(#""runbook":"https://wiki/cpu""#))
        #expect(out[7].payload.contains(#""severity":"critical""#))
    }

    @Test func withoutDiscoveryNoConfigIsPublished() {
        var bridge = Self.bridge(discovery: false)
        _ = bridge.brokerConnected(now: .zero)
        let out = bridge.snapshot(sensors: [BridgeSensor(info: Self.cpu, value: 45)], alerts: [], now: .zero)
        #expect(!out.contains { $0.topic.hasPrefix("ha/") })
        #expect(bridge.homeAssistantStarted().isEmpty)
    }

    @Test func valuesCoalesceWithinEveryAndTheLatestWins() {
        var bridge = Self.bridge(every: .seconds(10))
        _ = bridge.brokerConnected(now: .zero)
        _ = bridge.snapshot(sensors: [BridgeSensor(info: Self.cpu, value: 40)], alerts: [], now: .zero)
        #expect(
            bridge.change(sensors: [BridgeSensor(info: Self.cpu, value: 41)], alerts: [], gone: [], now: .seconds(1))
                .isEmpty)
        #expect(
            bridge.change(sensors: [BridgeSensor(info: Self.cpu, value: 42)], alerts: [], gone: [], now: .seconds(2))
                .isEmpty)
        #expect(bridge.nextDeadline() == .seconds(10))
        #expect(bridge.due(now: .seconds(9)).isEmpty)
        #expect(Self.lines(bridge.due(now: .seconds(10))) == ["sw/h/sensor/sim_cpu/state 42 (r) q0"])
        // Past `every`, a change goes at once.
        #expect(
            Self.lines(
                bridge.change(
                    sensors: [BridgeSensor(info: Self.cpu, value: 43)], alerts: [], gone: [], now: .seconds(25)))
                == ["sw/h/sensor/sim_cpu/state 43 (r) q0"])
    }

    @Test func everyZeroPublishesEachChange() {
        var bridge = Self.bridge(every: .zero, qos: 1)
        _ = bridge.brokerConnected(now: .zero)
        _ = bridge.snapshot(sensors: [BridgeSensor(info: Self.cpu, value: 40)], alerts: [], now: .zero)
        for (i, v) in [41.0, 42, 43].enumerated() {
            let out = bridge.change(
                sensors: [BridgeSensor(info: Self.cpu, value: v)], alerts: [], gone: [], now: .milliseconds(i))
            #expect(Self.lines(out) == ["sw/h/sensor/sim_cpu/state \(NumberText.number(v)) (r) q1"])
        }
    }

    @Test func anUnchangedValueIsPublishedAgainBeforeItExpires() {
        var bridge = Self.bridge(every: .seconds(10))
        _ = bridge.brokerConnected(now: .zero)
        _ = bridge.snapshot(sensors: [BridgeSensor(info: Self.cpu, value: 40)], alerts: [], now: .zero)
        #expect(bridge.expireAfter("sim:cpu") == .seconds(30))
        #expect(bridge.nextDeadline() == .seconds(10))
        #expect(Self.lines(bridge.due(now: .seconds(10))) == ["sw/h/sensor/sim_cpu/state 40 (r) q0"])
    }

    @Test func alertTransitionsAreNeverHeldBack() {
        var bridge = Self.bridge(every: .seconds(10))
        _ = bridge.brokerConnected(now: .zero)
        _ = bridge.snapshot(sensors: [BridgeSensor(info: Self.cpu, value: 40)], alerts: [], now: .zero)
        let on = bridge.change(
            sensors: [BridgeSensor(info: Self.cpu, value: 91)], alerts: [Self.firing(true)], gone: [], now: .seconds(1))
        #expect(
            Self.lines(on) == [
                "sw/h/alert/cpu-hot__sim_cpu/state ON (r) q1", "sw/h/alert/cpu-hot__sim_cpu/attributes {…} (r) q1",
            ])
        #expect(
            on[1].payload == """
                {"rule":"cpu-hot","sensor":"sim:cpu","severity":"critical","threshold":80,"value":91,"since":"2026-12-07T09:00:00Z","message":null,"runbook":"https://wiki/cpu"}
                """)
        let off = bridge.change(sensors: [], alerts: [Self.firing(false, value: 70)], gone: [], now: .seconds(2))
        #expect(Self.lines(off).first == "sw/h/alert/cpu-hot__sim_cpu/state OFF (r) q1")
    }

    @Test func aGoneSensorHasItsConfigsAndStatesRemoved() {
        var bridge = Self.bridge()
        _ = bridge.brokerConnected(now: .zero)
        _ = bridge.snapshot(sensors: [BridgeSensor(info: Self.cpu, value: 40)], alerts: [], now: .zero)
        #expect(
            Self.lines(bridge.change(sensors: [], alerts: [], gone: ["sim:cpu"], now: .seconds(1))) == [
                "ha/sensor/sensorwatch_h/sim_cpu/config  (r) q1", "sw/h/sensor/sim_cpu/state  (r) q1",
                "ha/binary_sensor/sensorwatch_h/cpu-hot__sim_cpu/config  (r) q1",
                "sw/h/alert/cpu-hot__sim_cpu/state  (r) q1",
                "sw/h/alert/cpu-hot__sim_cpu/attributes  (r) q1",
            ])
        // It comes back: announced again, under the same topics.
        #expect(
            Self.lines(
                bridge.change(
                    sensors: [BridgeSensor(info: Self.cpu, value: 41)], alerts: [], gone: [], now: .seconds(2))) == [
                    "ha/sensor/sensorwatch_h/sim_cpu/config {…} (r) q1",
                    "ha/binary_sensor/sensorwatch_h/cpu-hot__sim_cpu/config {…} (r) q1",
                    "sw/h/sensor/sim_cpu/state 41 (r) q0",
                    "sw/h/alert/cpu-hot__sim_cpu/state OFF (r) q1", "sw/h/alert/cpu-hot__sim_cpu/attributes {…} (r) q1",
                ])
    }

    @Test func aSensorGoneWhileTheBrokerWasAwayIsRemovedOnItsReturn() {
        var bridge = Self.bridge()
        _ = bridge.brokerConnected(now: .zero)
        _ = bridge.snapshot(
            sensors: [BridgeSensor(info: Self.cpu, value: 40), BridgeSensor(info: Self.fan, value: 900)], alerts: [],
            now: .zero)
        bridge.brokerLost()
        #expect(bridge.change(sensors: [], alerts: [], gone: ["sim:fan"], now: .seconds(1)).isEmpty)
        let back = Self.lines(bridge.brokerConnected(now: .seconds(2)))
        #expect(back.contains("ha/sensor/sensorwatch_h/sim_fan/config  (r) q1"))
        #expect(back.contains("sw/h/sensor/sim_fan/state  (r) q1"))
        #expect(!back.contains("ha/sensor/sensorwatch_h/sim_fan/config {…} (r) q1"))
    }

    @Test func theBirthMessageRepublishesEveryConfig() {
        var bridge = Self.bridge()
        _ = bridge.brokerConnected(now: .zero)
        _ = bridge.snapshot(
            sensors: [BridgeSensor(info: Self.cpu, value: 40), BridgeSensor(info: Self.fan, value: 900)], alerts: [],
            now: .zero)
        #expect(
            Self.lines(bridge.homeAssistantStarted()) == [
                "ha/sensor/sensorwatch_h/sim_cpu/config {…} (r) q1",
                "ha/binary_sensor/sensorwatch_h/cpu-hot__sim_cpu/config {…} (r) q1",
                "ha/sensor/sensorwatch_h/sim_fan/config {…} (r) q1",
            ])
    }

    @Test func withoutABrokerTransitionsWaitInOrderAndValuesCoalesce() {
        var bridge = Self.bridge()
        _ = bridge.snapshot(sensors: [BridgeSensor(info: Self.cpu, value: 40)], alerts: [], now: .zero)
        #expect(
            bridge.change(
                sensors: [BridgeSensor(info: Self.cpu, value: 91)], alerts: [Self.firing(true)], gone: [],
                now: .seconds(1)
            ).isEmpty)
        #expect(
            bridge.change(
                sensors: [BridgeSensor(info: Self.cpu, value: 60)], alerts: [Self.firing(false, value: 60)], gone: [],
                now: .seconds(2)
            ).isEmpty)
        #expect(bridge.heldCount == 4)
        let back = Self.lines(bridge.brokerConnected(now: .seconds(3)))
        #expect(
            back == [
                "sw/h/status online (r) q1",
                "ha/sensor/sensorwatch_h/sim_cpu/config {…} (r) q1",
                "ha/binary_sensor/sensorwatch_h/cpu-hot__sim_cpu/config {…} (r) q1",
                "sw/h/alert/cpu-hot__sim_cpu/state ON (r) q1", "sw/h/alert/cpu-hot__sim_cpu/attributes {…} (r) q1",
                "sw/h/alert/cpu-hot__sim_cpu/state OFF (r) q1", "sw/h/alert/cpu-hot__sim_cpu/attributes {…} (r) q1",
                "sw/h/sensor/sim_cpu/state 60 (r) q0",
                "sw/h/alert/cpu-hot__sim_cpu/state OFF (r) q1", "sw/h/alert/cpu-hot__sim_cpu/attributes {…} (r) q1",
            ])
        #expect(bridge.heldCount == 0)
    }

    @Test func atMostTenThousandTransitionsWaitAndTheOverflowIsCounted() {
        var bridge = Self.bridge()
        _ = bridge.snapshot(sensors: [BridgeSensor(info: Self.cpu, value: 40)], alerts: [], now: .zero)
        for i in 0..<5_001 {
            _ = bridge.change(
                sensors: [], alerts: [Self.firing(i % 2 == 0, value: Double(i))], gone: [], now: .seconds(1))
        }
        #expect(bridge.heldCount == MQTTBridge.heldLimit)
        #expect(bridge.dropped == 2)
        let back = bridge.brokerConnected(now: .seconds(2))
        // The oldest went: the first transition kept is the second one's attributes' successor.
        let kept = back.filter { $0.topic.hasSuffix("/attributes") }
        #expect(kept.first?.payload.contains(#""value":1,"#) == true)
    }

    @Test func unsentAlertMessagesWaitForTheNextConnection() {
        var bridge = Self.bridge()
        _ = bridge.brokerConnected(now: .zero)
        _ = bridge.snapshot(sensors: [BridgeSensor(info: Self.cpu, value: 40)], alerts: [], now: .zero)
        let on = bridge.change(sensors: [], alerts: [Self.firing(true)], gone: [], now: .seconds(1))
        bridge.unsent(on + [MQTTMessage(topic: "sw/h/sensor/sim_cpu/state", payload: "1", qos: 0, retain: true)])
        #expect(bridge.heldCount == 2)
        bridge.brokerLost()
        #expect(Self.lines(bridge.brokerConnected(now: .seconds(2))).filter { $0.contains("ON") }.count == 2)
    }

    @Test func theStreamGoneIsOfflineAndItsReturnOnline() {
        var bridge = Self.bridge()
        _ = bridge.brokerConnected(now: .zero)
        _ = bridge.snapshot(
            sensors: [BridgeSensor(info: Self.cpu, value: 40), BridgeSensor(info: Self.fan, value: 900)], alerts: [],
            now: .zero)
        #expect(Self.lines(bridge.streamLost()) == ["sw/h/status offline (r) q1"])
        let back = Self.lines(
            bridge.snapshot(
                sensors: [BridgeSensor(info: Self.cpu, value: 41)], alerts: [Self.firing(true)], now: .seconds(5)))
        #expect(back.first == "ha/sensor/sensorwatch_h/sim_fan/config  (r) q1")
        #expect(back.contains("sw/h/status online (r) q1"))
        #expect(back.contains("sw/h/alert/cpu-hot__sim_cpu/state ON (r) q1"))
        #expect(back.contains("sw/h/sensor/sim_cpu/state 41 (r) q0"))
    }
}
