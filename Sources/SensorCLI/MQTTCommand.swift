import Glibc
import SensorConfig
import SensorCore
import SensorLive
import SensorMQTT
import SensorRuntime
import SensorSystemd

#if canImport(Glibc)
#endif

/// `sensorwatch mqtt`: publishes the daemon's live stream to the broker of the
/// configuration's `mqtt` section, with Home Assistant discovery (SPEC §24).
enum MQTTCommand {
    static let help = """
        usage: sensorwatch mqtt [--config PATH]

        Reads the daemon's live stream (its liveSocket) and publishes to the broker of the
        configuration's mqtt section: <prefix>/<host>/status (online, or offline, also as the
        last will), each sensor's value, each (rule, sensor) alert's ON/OFF and attributes,
        all retained, and Home Assistant's discovery configs (again when Home Assistant's
        birth message comes). A broker that is gone is tried again after 1 s, doubling to
        60 s; on its return everything is published again. libmosquitto (Debian package
        libmosquitto1) is loaded when it starts.

        Signals: SIGTERM and SIGINT publish offline and stop.

        options:
          --config PATH  configuration file (default: $SENSORWATCH_CONFIG,
                         else /etc/sensorwatch/sensorwatch.json5)
          --help         show this help

        exit status: 0 stopped by a signal, 69 libmosquitto missing, 78 configuration error
        (no mqtt section, an unreadable password), 64 bad usage

        example (Home Assistant on mqtt.lan, the password in a file of mode 0600):
          mqtt: { broker: "mqtt://mqtt.lan", username: "sensorwatch", passwordFile: "/etc/sensorwatch/mqtt.pw" }
        """

    /// The signals `mqtt` handles (stop, stop, said to do nothing).
    static let signals = [SIGTERM, SIGINT, SIGHUP]

    @DaemonActor
    static func run(_ args: [String]) async throws(ExitCode) -> ExitCode {
        let options: Options = try CommandSupport.parse(args, help: help)
        let path = options.configPath
        let configuration: Configuration = try CommandSupport.loadConfiguration(path)
        guard let mqtt = configuration.mqtt else {
            Output.stderr(
                "\(path): mqtt: required key is missing (the broker to publish to: mqtt: { broker: \"mqtt://HOST\" })")
            return .config
        }
        guard let socket = LiveSocketPath.client(configuration.liveSocket) else {
            Output.stderr("\(path): liveSocket: is false: the daemon has no live stream for mqtt to read")
            return .config
        }
        var password: String?
        if let source = mqtt.password {
            switch source.read() {
            case .success(let p): password = p
            case .failure(let error):
                Output.stderr("\(path): mqtt: \(error.message)")
                return .config
            }
        }
        let (signalSource, clock): (SignalSource<DaemonSignal>, BootClock) = try CommandSupport.withThreads({
            () throws(SystemError) in
            (try SignalSource(Self.signals, as: DaemonSignal.init), try BootClock())
        })
        defer { signalSource.cancel() }
        let host = NotifyCommand.hostName()
        let topics = MQTTTopics(prefix: mqtt.topicPrefix, host: host, discoveryPrefix: mqtt.discoveryPrefix)
        let client: MosquittoClient
        do {
            client = try MosquittoClient(
                settings: .init(
                    broker: mqtt.broker, clientID: mqtt.clientID ?? "sensorwatch-\(topics.host)",
                    username: mqtt.username,
                    password: password, ca: mqtt.ca,
                    will: MQTTMessage(topic: topics.status, payload: "offline", qos: 1, retain: true)),
                clock: clock)
        } catch {
            Output.stderr("sensorwatch mqtt: \(error)")
            return .unavailable
        }
        let sources = configuration.sources
        let defaultInterval = configuration.interval
        let settings = MQTTBridge.Settings(
            topics: topics, device: .init(topics: topics, hostName: host, version: CLI.version), qos: mqtt.qos,
            every: mqtt.every, rules: configuration.rules,
            interval: { id in interval(of: id, sources: sources, default: defaultInterval) })
        let runner = MQTTBridgeRunner(
            settings: settings,
            environment: .init(
                client: client, stream: SocketStreamSource(path: socket), streamName: socket,
                log: JournalLog(sink: JournalAlertSink(fallback: StreamAlertSink())), notifier: SystemdNotifier()),
            clock: clock, broker: mqtt.broker.description)
        return await runner.run(signals: signalSource.stream) ? .success : .osError
    }

    /// The poll interval of the source a sensor id comes from (its kind's prefix, its
    /// include and exclude), for Home Assistant's `expire_after`; else the default interval.
    static func interval(of id: SensorID, sources: [SourceConfiguration], default fallback: Duration) -> Duration {
        let text = id.rawValue
        for source in sources where text.hasPrefix(source.kind.idPrefix + ":") {
            if !source.include.isEmpty, !source.include.contains(where: { $0.matches(text) }) { continue }
            if source.exclude.contains(where: { $0.matches(text) }) { continue }
            return source.interval
        }
        return fallback
    }
}
