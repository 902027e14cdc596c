#if canImport(Glibc)
import Glibc
#endif
import SensorCore
import SensorLive
import SensorRuntime
import SensorTerminal

/// `sensorwatch watch`: the daemon's live stream as lines, for scripts and people (SPEC §22).
enum WatchCommand {
    static let help = """
        usage: sensorwatch watch [--config PATH] [--sensor GLOB]... [--json]

        Prints the running daemon's live stream: one line per changed sensor or alert,
        "21:03:05 thermal:x86_pkg_temp 55 °C", an alert's transition (FIRING, pending,
        resolved) in its severity's colour on a terminal (NO_COLOR=1 turns colour off).
        When the daemon is not running, or stops, it says so once on stderr and waits for
        it; Ctrl-C ends it.

        options:
          --sensor GLOB  only sensors whose id matches (* ? [a-z]), and their alerts;
                         may be given more than once
          --json         each message of the stream as it comes, one JSON object a line
                         (hello, snapshot, change, error; man sensorwatch, watch)
          --config PATH  configuration whose liveSocket to use (default:
                         $SENSORWATCH_CONFIG, else /etc/sensorwatch/sensorwatch.json5,
                         when it exists; else live.sock in the runtime directory)
          --help         show this help

        exit status: 0 ended by Ctrl-C (or SIGTERM), 1 the configuration turns the stream
        off, 64 bad usage, 78 configuration error

        examples:
          sensorwatch watch
          sensorwatch watch --sensor 'hwmon:coretemp*'
          sensorwatch watch --json | jq -c 'select(.type == "change")'
        """

    /// The signals that end it, routed into the pipe at start (``CLI/prepare(_:)``).
    static let signals = [SIGINT, SIGTERM, SIGHUP]

    static func run(_ args: [String]) async throws(ExitCode) -> ExitCode {
        let options: Options = try CommandSupport.parse(
            args, valued: ["config", "sensor"], flags: ["json"], help: help)
        var globs: [Glob] = []
        for pattern in options.all("sensor") {
            do {
                globs.append(try Glob(pattern))
            } catch {
                Output.stderr("sensorwatch watch: --sensor \(DisplayText.escaped(pattern)): \(error)\n\n" + help)
                return .usage
            }
        }
        let setup: LiveClientSetup = try LiveClientSetup.make(options, command: "watch", signals: signals)
        let source = setup.signals
        let follower = LiveFollower(
            path: setup.path, subscription: globs.isEmpty ? nil : LiveSubscription(sensors: globs), clock: setup.clock)
        let formatter = WatchFormatter(colour: isatty(1) == 1 && LiveClientSetup.terminalEnvironment.colour)
        let json = options.has("json")
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await _ in source.stream { return }
            }
            group.addTask {
                await follow(follower, json: json, formatter: formatter)
            }
            await group.next()
            group.cancelAll()
        }
        source.cancel()
        return .success
    }

    /// Prints the stream until cancelled; says on stderr, once each time, that the daemon is
    /// not there or went away.
    static func follow(_ follower: LiveFollower, json: Bool, formatter: WatchFormatter) async {
        var state = LiveState()
        var waiting = false
        var lostOnce = false
        await follower.follow { event in
            switch event {
            case .absent(let failure):
                if !waiting {
                    let why =
                        LiveConnection.daemonAbsent(failure)
                        ? "no daemon listens at \(failure.path ?? "") (is sensorwatch running?)" : "\(failure)"
                    Output.stderr("sensorwatch watch: \(why); waiting for it")
                    waiting = true
                }
            case .connected:
                if waiting || lostOnce { Output.stderr("sensorwatch watch: connected to the daemon") }
                waiting = false
            case .lost(let reason):
                Output.stderr("sensorwatch watch: the daemon went away (\(reason)); waiting for it")
                waiting = true
                lostOnce = true
            case .message(let message):
                if json {
                    FileDescriptorWriter.writeAll(1, Array((message.line + "\n").utf8))
                } else {
                    if case .error(let text) = message { Output.stderr("sensorwatch watch: the daemon says: \(text)") }
                    let lines = formatter.lines(message, state: state)
                    if !lines.isEmpty {
                        FileDescriptorWriter.writeAll(1, Array((lines.joined(separator: "\n") + "\n").utf8))
                    }
                }
                state.apply(message)
            }
        }
    }
}
