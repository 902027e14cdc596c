#if canImport(Glibc)
import Glibc
#endif
import CLinux
import SensorConfig
import SensorCore
import SensorLive
import SensorSystemd
import SensorTerminal

/// `sensorwatch top`: a live full-screen view of every sensor and alert (SPEC §22).
enum TopCommand {
    static let help = """
        usage: sensorwatch top [--config PATH]

        A live full-screen view of the running daemon: one row a sensor, grouped by chip
        or source, with its value, a sparkline of the last 10 minutes, the window's min
        and max, the chip's limits and its state (ok, pending, FIRING rule, silenced
        until, asleep, fault). When the daemon stops, the header says so and top waits
        for it to come back.

        keys:  arrows PgUp PgDn Home End  move    /  filter by a glob on id or label
               f  only what fires or pends        Enter  a row's rules, limits, transitions
               s  silence the row's alert (default 1h; as `sensorwatch silence add`)
               ?  help    Ctrl-L  redraw          q  Ctrl-C  quit

        Needs a terminal of at least 80×24 (not TERM=dumb); NO_COLOR=1 turns colour off;
        the sparkline is ASCII where the locale is not UTF-8.

        options:
          --config PATH  configuration whose liveSocket and rules to use (default:
                         $SENSORWATCH_CONFIG, else /etc/sensorwatch/sensorwatch.json5,
                         when it exists)
          --help         show this help

        exit status: 0 quit, 1 not a usable terminal (or another error), 64 bad usage,
        78 configuration error

        examples:
          sensorwatch top
          sensorwatch top --config /etc/sensorwatch/sensorwatch.json5
        """

    /// The signals it takes (routed at start, ``CLI/prepare(_:)``): a resize, and those that
    /// end it after the terminal is restored.
    static let signals = [SIGINT, SIGTERM, SIGHUP, SIGWINCH]

    /// The shortest time between two frames.
    static let frameInterval = Duration.milliseconds(100)

    static func run(_ args: [String]) async throws(ExitCode) -> ExitCode {
        let options: Options = try CommandSupport.parse(args, valued: ["config"], help: help)
        // A view that stays open for days: two arenas, and memory it no longer uses goes back
        // past 64 KiB (issue 36's 10 MiB), set before its threads make arenas of their own.
        _ = sw_malloc_limit(2, 64 * 1024, 64 * 1024)
        let environment = LiveClientSetup.terminalEnvironment
        guard isatty(0) == 1, isatty(1) == 1 else {
            Output.stderr(
                "sensorwatch top: needs a terminal on standard input and output; use `sensorwatch watch` in a pipe")
            return .failure
        }
        let terminal = TTYTerminal()
        if let why = environment.unusable(size: terminal.size(), minimum: TopScreen.minimum) {
            Output.stderr("sensorwatch top: " + why)
            return .failure
        }
        let setup: LiveClientSetup = try LiveClientSetup.make(options, command: "top", signals: signals)
        let (configuration, path, source, clock) = (setup.configuration, setup.path, setup.signals, setup.clock)
        // No daemon at start, and a configuration to run: top runs its own (SPEC §22).
        var standalone: TopStandalone?
        if configuration != nil, let socket = path() {
            do {
                try LiveConnection(path: socket).close()
            } catch {
                if LiveConnection.daemonAbsent(error) { standalone = TopStandalone() }
            }
        }
        let guardian = TermiosGuard(input: 0, terminal: terminal)
        do {
            try guardian.enter()
        } catch {
            Output.stderr("sensorwatch top: \(error)")
            return .failure
        }
        // Every way out below comes back here: the terminal is restored first.
        defer { guardian.restore() }
        var socket: @Sendable () -> String? = path
        var own: (TopStandalone, Configuration)?
        if let standalone, let configuration {
            socket = { standalone.socket }
            own = (standalone, configuration)
        }
        let session = TopSession(
            terminal: terminal, environment: environment, clock: clock, rules: configuration?.rules,
            follower: LiveFollower(path: socket, subscription: nil, clock: clock), standalone: own)
        let (code, farewell) = await session.run(signals: source.stream)
        source.cancel()
        guardian.restore()
        if let farewell { Output.stderr("sensorwatch top: " + farewell) }
        return code
    }
}
