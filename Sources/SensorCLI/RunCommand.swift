import CLinux
import Glibc
import SensorConfig
import SensorCore
import SensorDaemon
import SensorIPMI
import SensorLive
import SensorNotify
import SensorRuntime
import SensorSysfs
import SensorSystemd

#if canImport(Glibc)
#endif

/// `sensorwatch run`: the daemon in the foreground, as systemd runs it.
enum RunCommand {
    static let help = """
        usage: sensorwatch run [--config PATH]

        Runs the daemon in the foreground: reads every configured source at its interval,
        evaluates the rules on every sample, and logs alert events to the journal (or to
        stderr when no journald listens: with <N> priority prefixes, or on a terminal as
        local time, severity in colour and message; NO_COLOR=1 turns colour off). Keeps
        the status file `sensorwatch status` reads (statusFile, else status.json in
        $RUNTIME_DIRECTORY; outside systemd /run/sensorwatch for root, else
        $XDG_RUNTIME_DIR/sensorwatch), and serves the live stream watch, top and mqtt
        read on the Unix socket liveSocket, else live.sock beside the status file.

        Signals: SIGHUP reloads the configuration (a bad one is logged, the running one
        kept); SIGTERM and SIGINT stop cleanly.

        options:
          --config PATH  configuration file (default: $SENSORWATCH_CONFIG,
                         else /etc/sensorwatch/sensorwatch.json5)
          --help         show this help

        exit status: 0 stopped by a signal, 78 configuration error, 64 bad usage

        examples:
          sensorwatch run --config config/sensorwatch.json5
          sudo systemctl start sensorwatch && journalctl -t sensorwatch -f
          kill -HUP $(pidof sensorwatch)   # reload the configuration
        """

    @DaemonActor
    static func run(_ args: [String]) async throws(ExitCode) -> ExitCode {
        let options: Options = try CommandSupport.parse(args, help: help)
        let path = options.configPath
        // Before the poll threads: each thread that allocates while the others hold their
        // arena would get one of its own (up to 16 here), each keeping ~0.5 MiB of its own
        // free pages; two arenas made 20 BMCs 3.5 MiB smaller (bench/README.md). Blocks of
        // 64 KiB and more (FreeIPMI's SDR context while a BMC's SDR loads, 20 at once at
        // start) mapped on their own leave no holes in the arenas: 0.2-0.4 MiB less with 20
        // BMCs, no more CPU now that no poll makes one. Not top's trim threshold: the 20
        // polls at one tick then grow and shrink the heap each sweep, about +50 % CPU.
        _ = sw_malloc_limit(2, 64 * 1024, 0)
        // The signals go into a pipe since `main` (see SignalSource) and are read before
        // anything slow happens, so an early SIGTERM or SIGHUP is kept (in the pipe, then
        // in the stream) until the daemon reads it, never lost and never fatal.
        let source: SignalSource<DaemonSignal> = try CommandSupport.withThreads({ () throws(SystemError) in
            try SignalSource(CLI.runSignals, as: DaemonSignal.init)
        })
        defer { source.cancel() }

        let configuration: Configuration = try CommandSupport.loadConfiguration(path)
        let terminal = terminalLine()
        // On a terminal the events show there too, also while journald takes them (SPEC §19).
        // Each alert entry also wakes a running `notify` (SPEC §17, docs/decisions.md).
        let sink = JournalAlertSink(
            fallback: StreamAlertSink(terminal: terminal), echo: terminal.map { StreamAlertSink(terminal: $0) },
            wake: NotifyWakeSender())
        let log = JournalLog(sink: sink)
        // Sent before any sensor is opened, this first entry also opens the journal's socket,
        // which libsystemd then keeps: on a tree with more sensors than the open-file limit,
        // the sensors would otherwise take every descriptor and the entries go to stderr.
        log.log(
            .info,
            "starting: " + Count.of(configuration.sources.count, "source") + ", "
                + Count.of(configuration.rules.count, "rule")
                + "; open-file limit \(OpenFileLimit.current().description)")
        // Outside systemd (`make run`) nobody made the runtime directory the status file and
        // the live socket go to (SPEC §19: 0755 if missing).
        let runtime = RuntimeDirectory.forDaemon()
        if let problem = runtime?.makeIfMissing() { log.log(.warning, problem) }
        let store = StateStore(directory: StateStore.directoryFromEnvironment())
        let loaded = store.load()
        if let problem = loaded.problem {
            log.log(.warning, problem, kind: .stateFile)
        }
        let saveProblems = WriteProblemLog(
            log: log, kind: .stateFile,
            failed: { "cannot keep alert state: \($0); alerts keep working, a restart may log them again" },
            recovered: "alert state is kept again")
        let keeper = StateKeeper(store: store, loaded: loaded, problems: saveProblems)
        // A BMC's new event log records go to the journal, its position to the state file.
        let board = IPMIStateBoard()
        let readers = SourceReaders(
            stateDirectory: store.directory,
            eventLog: { [sink] bmc in
                IPMIEventLog(
                    position: keeper.position(of: bmc.bmc), sink: JournalEventLogSink(journal: sink, keeper: keeper))
            }, board: board)
        var environment = Daemon<BootClock>.Environment(
            // An alarm of a BMC's discrete sensor says which states raised it.
            sink: BMCAlertSink(sink: sink, board: board),
            notifier: SystemdNotifier(),
            log: log,
            reload: { () throws(ConfigErrors) -> Configuration in try ConfigLoader.load(path: path) },
            restored: loaded.alerts,
            persist: { keeper.save(alerts: $0) },
            makeReader: { readers.make($0, loop: true) },
            // Process-wide memory tricks belong to the executable, not the library.
            trimMemory: { _ = sw_malloc_trim(0) },
            // Also the pages other processes map too (libc, libstdc++), which `MADV_PAGEOUT`
            // leaves: the steady loop's come back once (20 BMCs' files 10.1 -> 8.7 MiB).
            settled: { StartupPages.releaseShared() },
            version: CLI.version,
            defaultStatusFile: runtime?.file("status.json")
        )
        // The live stream (SPEC §22), unless `liveSocket: false`.
        if let live = LiveSocketPath.daemon(configuration.liveSocket) {
            environment.publishers = [
                LiveStreamPublisher(
                    path: live, host: NotifyCommand.hostName(),
                    silences: JournalLiveSilenceSource(trust: configuration.trust))
            ]
        }
        let clock: BootClock = try CommandSupport.withThreads(BootClock.init)
        let daemon = Daemon(configuration: configuration, environment: environment, clock: clock)
        await daemon.run(signals: source.stream)
        return .success
    }
}

extension RunCommand {
    /// The person's form of stderr lines when stderr is a terminal (SPEC §19), else nil.
    static func terminalLine() -> TerminalLine? {
        guard isatty(2) == 1 else { return nil }
        func env(_ name: String) -> String? { getenv(name).flatMap { String(validatingCString: $0) } }
        return TerminalLine(
            colour: TerminalLine.colourWanted(noColor: env("NO_COLOR"), term: env("TERM")), wallClock: SystemWallClock()
        )
    }
}
