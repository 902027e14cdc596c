import SensorCore
import SensorLive
import SensorMQTT
import SensorRuntime
import SensorTestKit
import Testing

/// `mqtt`'s loop: stream and broker events in, publications and journal entries out.
struct MQTTBridgeRunnerTests {
    struct Rig {
        let client = FakeMQTTClient()
        let source = FakeStreamSource()
        let log = MemoryLog()
        let clock = VirtualClock()
        let notifier = RecordingNotifier(watchdog: .seconds(20))
        let runner: MQTTBridgeRunner<VirtualClock>
        let signals: AsyncStream<DaemonSignal>
        let signal: AsyncStream<DaemonSignal>.Continuation

        init() {
            let topics = MQTTTopics(prefix: "sw", host: "h", discoveryPrefix: "ha")
            runner = MQTTBridgeRunner(
                settings: .init(
                    topics: topics, device: .init(topics: topics, hostName: "h", version: "1"), qos: 1,
                    every: .seconds(10),
                    rules: [], interval: { _ in .seconds(1) }),
                environment: .init(
                    client: client, stream: source, streamName: "/run/x/live.sock", log: log, notifier: notifier),
                clock: clock, broker: "mqtt://b:1883")
            (signals, signal) = AsyncStream.makeStream(of: DaemonSignal.self)
        }

        static let cpu = LiveSensor(
            id: "sim:cpu", label: "CPU", quantity: "temperature", unit: "°C", value: 45, time: 1)
    }

    @Test func publishesTheStreamSaysEachProblemOnceAndLeavesOffline() async throws {
        let rig = Rig()
        async let ran = rig.runner.run(signals: rig.signals)
        #expect(await rig.source.connected.until(1))
        rig.client.emit(.connected)
        #expect(await rig.client.publishes.until(1))
        #expect(rig.client.published.map(\.payload) == ["offline"])
        #expect(rig.client.subscribed == ["ha/status"])
        rig.source.send(.hello(LiveHello(version: 1, host: "h", pid: 1, started: 0)))
        rig.source.send(.snapshot(LiveSnapshot(sensors: [Rig.cpu], alerts: [], silences: [], history: [:])))
        #expect(await rig.client.publishes.until(4))
        #expect(
            rig.client.published.dropFirst().map(\.topic) == [
                "sw/h/status", "ha/sensor/sensorwatch_h/sim_cpu/config", "sw/h/sensor/sim_cpu/state",
            ])
        let refused = MQTTProblem(.loginRefused, "mqtt://b:1883 refused the login as \"u\": not authorised")
        rig.client.emit(.disconnected(refused, retryIn: .seconds(1)))
        rig.client.emit(.disconnected(refused, retryIn: .seconds(2)))
        #expect(await rig.runner.handled.until(5))
        #expect(
            rig.log.lines.filter { $0.contains("refused the login") }
                == [
                    "<3>mqtt://b:1883 refused the login as \"u\": not authorised; trying again in 1s, then at most every minute"
                ])
        rig.client.emit(.connected)
        #expect(await rig.client.publishes.until(7))
        // Anything else the broker sends is not taken.
        rig.client.emit(.message(topic: "ha/status", payload: "offline"))
        rig.client.emit(.message(topic: "sw/h/status", payload: "online"))
        // Home Assistant starts: every config again.
        rig.client.emit(.message(topic: "ha/status", payload: "online"))
        #expect(await rig.client.publishes.until(8))
        // Its configs come while the 7th input is handled (the 9th, had the two others been taken).
        #expect(rig.runner.handled.value <= 7)
        #expect(rig.client.published.last?.topic == "ha/sensor/sensorwatch_h/sim_cpu/config")
        // The daemon goes: offline, once.
        rig.source.end()
        #expect(await rig.client.publishes.until(9))
        #expect(rig.client.published.last?.payload == "offline")
        #expect(rig.log.lines.contains { $0.contains("live stream at /run/x/live.sock is not there") })
        rig.signal.yield(.stop)
        #expect(await ran)
        #expect(rig.client.stopped)
        #expect(rig.client.final == MQTTMessage(topic: "sw/h/status", payload: "offline", qos: 1, retain: true))
    }

    @Test func valuesHeldBackByEveryGoOutWhenTheTimerExpires() async throws {
        let rig = Rig()
        async let ran = rig.runner.run(signals: rig.signals)
        #expect(await rig.source.connected.until(1))
        rig.client.emit(.connected)
        rig.source.send(.snapshot(LiveSnapshot(sensors: [Rig.cpu], alerts: [], silences: [], history: [:])))
        #expect(await rig.client.publishes.until(4))
        var warmer = Rig.cpu
        warmer.value = 47
        rig.source.send(.change(LiveChange(time: 2, sensors: [warmer])))
        #expect(await rig.runner.handled.until(3))
        #expect(rig.client.published.count == 4)
        #expect(await rig.clock.until { !$0.alarmDeadlines.isEmpty })
        rig.clock.advance(by: .seconds(10))
        #expect(await rig.client.publishes.until(5))
        #expect(
            rig.client.published.last
                == MQTTMessage(topic: "sw/h/sensor/sim_cpu/state", payload: "47", qos: 1, retain: true))
        rig.signal.yield(.stop)
        #expect(await ran)
    }

    @Test func tellsSystemdItIsReadyPingsTheWatchdogAndSaysStatus() async throws {
        let rig = Rig()
        async let ran = rig.runner.run(signals: rig.signals)
        #expect(await rig.notifier.readies.until(1))
        #expect(rig.notifier.sent.first == "READY=1\nSTATUS=connecting to mqtt://b:1883")
        #expect(await rig.clock.untilSleepers(1))
        rig.clock.advance(by: .seconds(5))
        #expect(await rig.notifier.pings.until(1))
        rig.client.emit(.connected)
        #expect(await rig.runner.handled.until(1))
        #expect(rig.notifier.sent.contains("STATUS=connected to mqtt://b:1883"))
        rig.signal.yield(.stop)
        #expect(await ran)
        #expect(rig.notifier.sent.last == "STOPPING=1")
    }

    @Test func theOverflowOfWaitingAlertTransitionsIsSaidOnce() async throws {
        let rig = Rig()
        async let ran = rig.runner.run(signals: rig.signals)
        #expect(await rig.source.connected.until(1))
        rig.source.send(.snapshot(LiveSnapshot(sensors: [Rig.cpu])))
        // No broker: each new alert waits as its config, state and attributes (3 messages).
        for round in 0..<2 {
            let alerts = (0..<2_500).map {
                LiveAlert(
                    rule: "r\($0)", sensor: "sim:cpu", severity: "warning", state: round == 0 ? .firing : .ok, since: 1)
            }
            rig.source.send(.change(LiveChange(time: 2, alerts: alerts)))
        }
        #expect(await rig.runner.handled.until(3))
        #expect(
            rig.log.lines.filter { $0.contains("alert messages waited") }
                == [
                    "<4>more than 10000 alert messages waited for mqtt://b:1883: the oldest are dropped (every alert's current state is still published when it is back)"
                ])
        rig.client.emit(.connected)
        #expect(await rig.runner.handled.until(4))
        let states = rig.client.published.filter { $0.topic.hasPrefix("sw/h/alert/") && $0.topic.hasSuffix("/state") }
        // The 10 000 kept, then every alert's current state: all OFF at the end.
        #expect(states.suffix(2_500).allSatisfy { $0.payload == "OFF" })
        #expect(rig.log.lines.filter { $0.contains("alert messages waited") }.count == 1)
        rig.signal.yield(.stop)
        #expect(await ran)
    }
}
