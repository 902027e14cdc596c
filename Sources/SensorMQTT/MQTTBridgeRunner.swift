import SensorCore
import SensorLive
public import SensorRuntime
import Synchronization

/// `sensorwatch mqtt`'s loop (SPEC §24): the daemon's stream in, the broker's connection
/// out, through ``MQTTBridge``.
///
/// Every input — a stream message, a connection event, the timer of values that wait for
/// `every`, a signal — goes into one stream handled on the daemon's executor, one at a time,
/// so the bridge's state needs no lock. The stream is read on its connection's thread and
/// the broker's connection runs on the client's; neither ever waits for the other, and the
/// daemon never waits for the bridge. The timer is an alarm of the injected clock, waited on
/// by a thread of its own and re-armed only when the next deadline moves.
public final class MQTTBridgeRunner<C: RunClock>: Sendable {
    /// What the runner works with.
    public struct Environment: Sendable {
        /// The broker's connection.
        public var client: any MQTTClient
        /// The daemon's stream.
        public var stream: any LiveStreamSource
        /// What the stream is called in messages (its socket's path).
        public var streamName: String
        /// Where problems are said (the journal; stderr without it).
        public var log: any DaemonLog
        /// READY, STATUS, WATCHDOG.
        public var notifier: any ServiceNotifier

        /// An environment with these parts.
        public init(
            client: any MQTTClient, stream: any LiveStreamSource, streamName: String, log: any DaemonLog,
            notifier: any ServiceNotifier
        ) {
            self.client = client
            self.stream = stream
            self.streamName = streamName
            self.log = log
            self.notifier = notifier
        }
    }

    /// How long the runner waits before it connects to the daemon's stream again.
    public static var streamRetry: Duration { .seconds(1) }

    private let settings: MQTTBridge.Settings
    private let environment: Environment
    private let clock: C
    private let broker: String
    /// READY, STATUS=, STOPPING and the watchdog's pings, as `run` and `notify` send them.
    private let lifecycle: ServiceLifecycle
    /// Counts the inputs handled (for tests: an input's effects are done when it moved).
    package let handled = EventCount()

    /// A runner of `settings` on `clock`; `broker` names the broker in messages.
    public init(settings: MQTTBridge.Settings, environment: Environment, clock: C, broker: String) {
        self.settings = settings
        self.environment = environment
        self.clock = clock
        self.broker = broker
        lifecycle = ServiceLifecycle(notifier: environment.notifier)
    }

    /// Runs until a stop signal (or the end of `signals`); then publishes `offline` and
    /// disconnects cleanly. Returns false when the broker's connection could not be started.
    @DaemonActor
    public func run(signals: AsyncStream<DaemonSignal>) async -> Bool {
        let (inputs, feed) = AsyncStream.makeStream(of: BridgeInput.self)
        let alarm = clock.makeAlarm()
        let stopped = Atomic(false)
        do {
            try DetachedThread.start("the MQTT bridge's timer") {
                while true {
                    alarm.wait()
                    if stopped.load(ordering: .acquiring) { return }
                    feed.yield(.tick)
                }
            }
        } catch {
            environment.log.log(.warning, "\(error); values held back by every go out with the next change")
        }
        // What the broker sends is not trusted: only Home Assistant's birth message is taken,
        // and at most one waits at a time (a flood of them cannot grow the loop's queue).
        let birthTopic = settings.topics.homeAssistantStatus
        let birthWaiting = Atomic(false)
        do {
            try environment.client.start { event in
                if case .message(let topic, let payload) = event {
                    guard topic == birthTopic, payload == "online",
                        !birthWaiting.exchange(true, ordering: .acquiringAndReleasing)
                    else { return }
                }
                feed.yield(.mqtt(event))
            }
        } catch {
            environment.log.log(.error, "\(error)")
            stopped.store(true, ordering: .releasing)
            alarm.ring()
            return false
        }
        var loop = Loop(runner: self, alarm: alarm)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await signal in signals { feed.yield(.signal(signal)) }
                feed.yield(.signal(.stop))
            }
            group.addTask { [environment, clock] in
                while !Task.isCancelled {
                    do {
                        for try await message in try environment.stream.messages() { feed.yield(.live(message)) }
                        feed.yield(.streamEnded(nil))
                    } catch {
                        feed.yield(.streamEnded("\(error)"))
                    }
                    if (try? await clock.sleep(for: Self.streamRetry)) == nil { return }
                }
            }
            if let pings = lifecycle.watchdogPings(on: clock) { group.addTask { await pings.run() } }
            lifecycle.ready(status: "connecting to \(broker)")
            for await input in inputs {
                if case .signal(.stop) = input { break }
                if case .mqtt(.message) = input { birthWaiting.store(false, ordering: .releasing) }
                loop.handle(input)
                handled.increment()
            }
            lifecycle.stopping()
            group.cancelAll()
        }
        await environment.client.stop(
            with: MQTTMessage(topic: settings.topics.status, payload: "offline", qos: 1, retain: true))
        stopped.store(true, ordering: .releasing)
        alarm.ring()
        return true
    }

    /// The loop's state: the bridge, what the stream said so far, what was logged.
    @DaemonActor
    private struct Loop {
        let runner: MQTTBridgeRunner
        let alarm: any ClockAlarm
        let origin: C.Instant
        var bridge: MQTTBridge
        /// The client-side model of the stream (labels and units for the alerts' words).
        var live = LiveState()
        var armed: Duration?
        /// The last connection problem said, so each cause is said once.
        var problem: MQTTProblem?
        var streamProblem: String?
        var droppedSaid = false

        init(runner: MQTTBridgeRunner, alarm: any ClockAlarm) {
            self.runner = runner
            self.alarm = alarm
            origin = runner.clock.now
            bridge = MQTTBridge(settings: runner.settings)
        }

        var log: any DaemonLog { runner.environment.log }
        var now: Duration { origin.duration(to: runner.clock.now) }

        mutating func handle(_ input: BridgeInput) {
            switch input {
            case .live(let message):
                live.apply(message)
                switch message {
                case .hello: break
                case .snapshot(let s):
                    if streamProblem != nil {
                        log.log(.notice, "reading the daemon's live stream at \(runner.environment.streamName) again")
                        streamProblem = nil
                    }
                    publish(
                        bridge.snapshot(
                            sensors: LiveBridgeInput.sensors(s.sensors), alerts: s.alerts.map(alert), now: now))
                case .change(let c):
                    publish(
                        bridge.change(
                            sensors: LiveBridgeInput.sensors(c.sensors), alerts: c.alerts.map(alert), gone: c.gone,
                            now: now))
                case .error(let text):
                    log.log(.warning, "the daemon's live stream said: \(DisplayText.escaped(text))")
                }
            case .streamEnded(let reason):
                let words = reason.map(DisplayText.escaped) ?? "the daemon closed it"
                if streamProblem != words {
                    log.log(
                        .warning,
                        "the daemon's live stream at \(runner.environment.streamName) is not there (\(words)); "
                            + "\(runner.settings.topics.status) says offline until it is back")
                    streamProblem = words
                }
                publish(bridge.streamLost())
            case .mqtt(.connected):
                if let problem {
                    log.log(.notice, "connected to \(runner.broker) again (after: \(problem.words))")
                } else {
                    log.log(.info, "connected to \(runner.broker)")
                }
                problem = nil
                runner.lifecycle.status("connected to \(runner.broker)")
                if let birth = runner.settings.topics.homeAssistantStatus {
                    _ = runner.environment.client.subscribe(birth)
                }
                publish(bridge.brokerConnected(now: now))
            case .mqtt(.disconnected(let cause, let retryIn)):
                bridge.brokerLost()
                if cause != problem {
                    let level: LogLevel = cause.cause == .unreachable ? .warning : .error
                    log.log(
                        level,
                        "\(cause.words); trying again in \(NumberText.duration(seconds: retryIn.seconds)), then at most every minute"
                    )
                    problem = cause
                    runner.lifecycle.status("no broker: \(cause.words)")
                }
            case .mqtt(.message(let topic, let payload)):
                if topic == runner.settings.topics.homeAssistantStatus, payload == "online" {
                    publish(bridge.homeAssistantStarted())
                }
            case .tick:
                // The alarm expired: whatever comes next must arm it anew.
                armed = nil
                publish(bridge.due(now: now))
            case .signal(.reload):
                log.log(.notice, "SIGHUP: mqtt reads its configuration at start only; restart it to apply a change")
            case .signal(.stop):
                break
            }
            sayDropped()
            rearm()
        }

        func alert(_ a: LiveAlert) -> BridgeAlert {
            let sensor = live.sensors[a.sensor]
            return LiveBridgeInput.alert(a, label: sensor?.label, unit: sensor?.unit)
        }

        mutating func publish(_ messages: [MQTTMessage]) {
            guard !messages.isEmpty else { return }
            var unsent: [MQTTMessage] = []
            for m in messages where !runner.environment.client.publish(m) { unsent.append(m) }
            if !unsent.isEmpty { bridge.unsent(unsent) }
        }

        /// Says once that the bound of waiting alert transitions was passed.
        mutating func sayDropped() {
            guard bridge.dropped > 0, !droppedSaid else { return }
            droppedSaid = true
            log.log(
                .warning,
                "more than \(MQTTBridge.heldLimit) alert messages waited for \(runner.broker): the oldest are dropped "
                    + "(every alert's current state is still published when it is back)")
        }

        mutating func rearm() {
            let next = bridge.nextDeadline()
            guard next != armed else { return }
            armed = next
            if let next { alarm.arm(after: max(.zero, next - now)) } else { alarm.disarm() }
        }
    }
}
