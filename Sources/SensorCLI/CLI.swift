#if canImport(Glibc)
import Glibc
#endif
import SensorCore
import SensorRuntime

/// The `sensorwatch` command line: parses the subcommand and hands over to it.
public enum CLI {
    /// The version `--version` prints.
    public static let version = "0.1.0"

    /// One subcommand: its name, one-line abstract and entry point.
    struct Command: Sendable {
        var name: String
        var abstract: String
        /// Its steps; one that ends it early throws the exit code (``CommandSupport``).
        var run: @Sendable ([String]) async throws(ExitCode) -> ExitCode
    }

    static let commands: [Command] = [
        Command(
            name: "run", abstract: "run the daemon in the foreground",
            run: RunCommand.run),
        Command(
            name: "check", abstract: "validate the configuration and every file it names",
            run: CheckCommand.run),
        Command(name: "sensors", abstract: "read every configured sensor once and print it", run: SensorsCommand.run),
        Command(
            name: "simulate", abstract: "run the rules over a scenario in virtual time",
            run: SimulateCommand.run),
        Command(
            name: "record", abstract: "record the real sensors as a scenario to replay",
            run: RecordCommand.run),
        Command(name: "history", abstract: "print alert events read back from the journal", run: HistoryCommand.run),
        Command(
            name: "status", abstract: "what the running daemon sees now: alerts, every sensor", run: StatusCommand.run),
        Command(
            name: "test", abstract: "run rule tests: scenarios and the events they must give",
            run: TestCommand.run),
        Command(
            name: "silence", abstract: "stop the pages for some alerts for a while: add, list, expire",
            run: SilenceCommand.run),
        Command(
            name: "watch", abstract: "the daemon's live stream, one line per change",
            run: WatchCommand.run),
        Command(
            name: "top", abstract: "a live full-screen view of every sensor and alert",
            run: TopCommand.run),
        Command(
            name: "notify", abstract: "deliver alert events from the journal to people and systems",
            run: NotifyCommand.run),
        Command(
            name: "mqtt", abstract: "publish the live stream to MQTT, with Home Assistant discovery",
            run: MQTTCommand.run),
    ]

    /// The signals `run` handles (stop, stop, reload) and those `record` handles (stop).
    static let runSignals = [SIGTERM, SIGINT, SIGHUP]
    static let recordSignals = [SIGINT, SIGTERM]

    /// Process-wide set-up for the command line `args`, which `main` calls first, before
    /// anything starts a thread: routes the signals the command will read into a pipe (see
    /// ``SignalSource``), so one sent right after start is kept instead of killing the
    /// process. Other commands keep the default dispositions (Ctrl-C ends `sensors`).
    ///
    /// The commands that read sensors raise their open-file limit (see ``OpenFileLimit``).
    ///
    /// Then it starts the thread every command's tasks run on (``DaemonActor``'s): without
    /// it nothing asynchronous would ever run — not even the message — and the process would
    /// hang. Returns the status to exit with at once when that fails (`EX_OSERR`, said on
    /// stderr); nil to go on.
    public static func prepare(_ args: [String]) -> ExitCode? {
        switch args.first {
        case "run":
            SignalSource<Int32>.route(runSignals)
            OpenFileLimit.raise()
        case "record":
            SignalSource<Int32>.route(recordSignals)
            OpenFileLimit.raise()
        case "sensors":
            OpenFileLimit.raise()
        case "watch":
            SignalSource<Int32>.route(WatchCommand.signals)
        case "top":
            SignalSource<Int32>.route(TopCommand.signals)
        case "notify":
            // A program that exits before reading its event must not kill the notifier.
            signal(SIGPIPE, SIG_IGN)
            if !args.contains("--test") { SignalSource<Int32>.route(NotifyCommand.signals) }
        case "mqtt":
            // A broker that hangs up mid-write (TLS writes with write(2)) must not kill the bridge.
            signal(SIGPIPE, SIG_IGN)
            SignalSource<Int32>.route(MQTTCommand.signals)
        default: break
        }
        do {
            try CommandSupport.withThreads(DaemonActor.startThread)
        } catch {
            return error
        }
        return nil
    }

    /// Runs the command line (without the program name) as a task on ``executor`` and ends
    /// the process with its exit status; returns at once (the caller's thread waits).
    public static func launch(_ args: [String]) {
        Task(executorPreference: executor) {
            let status = await main(args)
            exit(status.rawValue)
        }
    }

    /// Runs the command line (without the program name) and returns the exit status.
    public static func main(_ args: [String]) async -> ExitCode {
        guard let first = args.first else {
            Output.stderr(usage)
            return .usage
        }
        switch first {
        case "--help", "-h", "help":
            Output.stdout(usage)
            return .success
        case "--version":
            Output.stdout("sensorwatch \(version)")
            return .success
        default:
            guard let command = commands.first(where: { $0.name == first }) else {
                Output.stderr("sensorwatch: unknown command '\(first)'\n\n" + usage)
                return .usage
            }
            return await exitCode(of: command.run, Array(args.dropFirst()))
        }
    }

    /// What a command's run comes to: the code it returned, or the one a step ended it with.
    static func exitCode(
        of run: ([String]) async throws(ExitCode) -> ExitCode, _ args: [String]
    ) async -> ExitCode {
        do {
            return try await run(args)
        } catch {
            return error
        }
    }

    static var usage: String {
        var s = "usage: sensorwatch <command> [options]\n\ncommands:\n"
        for c in commands {
            s += "  " + DisplayWidth.padded(c.name, to: 8) + "  " + c.abstract + "\n"
        }
        s += "\noptions:\n  --help     show help (also after a command)\n  --version  print the version"
        s +=
            "\n\nexamples:\n  sensorwatch sensors\n  sensorwatch simulate --config config/sensorwatch.json5 --plot run.svg"
        s += "\n  sensorwatch status"
        return s
    }
}
