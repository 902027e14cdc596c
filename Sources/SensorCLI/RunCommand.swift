import SensorCore

#if canImport(Glibc)
import Glibc
#endif

/// `sensorwatch run`: the daemon in the foreground, as systemd runs it.
enum RunCommand {
    static let help = """
        usage: sensorwatch run [--config PATH]

        Runs the daemon in the foreground: reads every configured source at its interval,
        evaluates the rules on every sample, and logs alert events to the journal (or to
        stderr with <N> priority prefixes when no journald listens).

        Signals: SIGHUP reloads the configuration (a bad one is logged, the running one
        kept); SIGTERM and SIGINT stop cleanly.

        options:
          --config PATH  configuration file (default: $SENSORWATCH_CONFIG,
                         else /etc/sensorwatch/sensorwatch.json5)
          --help         show this help

        exit status: 0 stopped by a signal, 78 configuration error, 64 bad usage
        """

    @MainActor
    static func run(_ args: [String]) async -> ExitCode {
        let options: Options
        switch CommandSupport.parse(args, help: help) {
        case .success(let o): options = o
        case .failure(let code): return code
        }
        let path = options.configPath
        // Signals are routed before anything slow happens, so an early SIGTERM or SIGHUP is
        // handled, not fatal.
        let pending = PendingSignals()
        let signals = SignalSource([SIGTERM, SIGINT, SIGHUP]) { sig in
            if sig == SIGHUP {
                if let daemon = pending.daemon { daemon.requestReload() } else { pending.reload = true }
            } else {
                if let daemon = pending.daemon { daemon.requestStop() } else { pending.stop = true }
            }
        }
        defer { signals.cancel() }

        let configuration: Configuration
        switch CommandSupport.loadConfiguration(path) {
        case .success(let c): configuration = c
        case .failure(let code): return code
        }
        let stream = StreamAlertSink()
        let environment = Daemon<ContinuousClock>.Environment(
            sink: stream,
            log: { priority, message in stream.write(line: "<\(priority)>\(message)") },
            reload: { () throws(ConfigErrors) -> Configuration in try ConfigLoader.load(path: path) },
            hangAfter: hangAfter()
        )
        let d = Daemon(configuration: configuration, environment: environment, clock: ContinuousClock())
        pending.daemon = d
        if pending.stop { d.requestStop() }
        if pending.reload { d.requestReload() }
        await d.run()
        return .success
    }

    /// `SENSORWATCH_TEST_HANG_AFTER=SECONDS`: makes the rule loop hang (watchdog tests).
    private static func hangAfter() -> Duration? {
        guard let raw = getenv("SENSORWATCH_TEST_HANG_AFTER"), let text = String(validatingCString: raw),
            let seconds = Double(text), seconds >= 0
        else { return nil }
        return .milliseconds(Int64(seconds * 1000))
    }
}

/// Signals that arrive before the daemon exists, replayed once it does.
@MainActor
private final class PendingSignals {
    var daemon: Daemon<ContinuousClock>?
    var stop = false
    var reload = false
}
