import CLinux
import SensorCore
import SensorSystemd
import Synchronization

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
        // kept (the stream buffers it) until the daemon reads it, not fatal.
        let (signals, delivered) = AsyncStream.makeStream(of: DaemonSignal.self)
        let source = SignalSource([SIGTERM, SIGINT, SIGHUP]) { sig in
            delivered.yield(sig == SIGHUP ? .reload : .stop)
        }
        defer { source.cancel() }

        let configuration: Configuration
        switch CommandSupport.loadConfiguration(path) {
        case .success(let c): configuration = c
        case .failure(let code): return code
        }
        let sink = JournalAlertSink(fallback: StreamAlertSink())
        let store = StateStore(directory: StateStore.directoryFromEnvironment())
        let loaded = store.load()
        if let problem = loaded.problem {
            sink.log(priority: 4, message: problem, id: .stateFile)
        }
        let saveProblems = SaveProblemLog(sink: sink)
        let environment = Daemon<BootClock>.Environment(
            sink: sink,
            notifier: SystemdNotifier(),
            log: { priority, message in
                sink.log(priority: priority, message: message, id: priority <= 3 ? .configReloadFailed : nil)
            },
            reload: { () throws(ConfigErrors) -> Configuration in try ConfigLoader.load(path: path) },
            restored: loaded.alerts,
            persist: { alerts in
                do {
                    try store.save(alerts)
                    saveProblems.succeeded()
                } catch {
                    saveProblems.failed(error)
                }
            },
            // Process-wide memory tricks belong to the executable, not the library.
            trimMemory: { _ = sw_malloc_trim(0) },
            settled: { StartupPages.release() },
            version: CLI.version
        )
        let daemon = await Daemon(configuration: configuration, environment: environment, clock: BootClock())
        await daemon.run(signals: signals)
        return .success
    }
}

/// Logs a failing state save once per distinct error, and once when saving works again,
/// so a read-only or full state directory cannot flood the journal.
private final class SaveProblemLog: Sendable {
    private let sink: JournalAlertSink
    private let last = Mutex<String?>(nil)

    init(sink: JournalAlertSink) { self.sink = sink }

    func failed(_ error: any Error) {
        let text = "\(error)"
        let isNew = last.withLock { last -> Bool in
            defer { last = text }
            return last != text
        }
        if isNew {
            sink.log(priority: 4, message: "cannot keep alert state: \(text); alerts keep working, a restart may log them again", id: .stateFile)
        }
    }

    func succeeded() {
        let hadProblem = last.withLock { last -> Bool in
            defer { last = nil }
            return last != nil
        }
        if hadProblem { sink.log(priority: 5, message: "alert state is kept again", id: .stateFile) }
    }
}
