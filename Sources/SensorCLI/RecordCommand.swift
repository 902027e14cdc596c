import Glibc
import SensorConfig
import SensorCore
import SensorRuntime
import SensorSimulation
import SensorSysfs

#if canImport(Glibc)
#endif

/// `sensorwatch record`: the configured real sources, written as a scenario (SPEC §15).
enum RecordCommand {
    static let help = """
        usage: sensorwatch record [--config PATH] [--duration D] [--interval I] --output FILE

        Reads the configured thermal, hwmon, iio and ipmi sources at their intervals
        (simulated sources are left out, rules are not evaluated) and writes what they
        read as a scenario: explicit samples per sensor under its own id
        (thermal:x86_pkg_temp), with limits and hardware alarms, null for a failed read. Replay it against any rules with
        sensorwatch simulate --config PATH --scenario FILE.

        Time 0 is the first poll; a sensor found later starts later. The file is written
        at the end, through a temporary file and a rename (an existing FILE is replaced).
        SIGINT (Ctrl-C) or SIGTERM ends the recording early with a complete file.

        options:
          --config PATH    configuration file (default: $SENSORWATCH_CONFIG,
                           else /etc/sensorwatch/sensorwatch.json5)
          --duration D     record for D ("90s", "1h"); default: until SIGINT or SIGTERM
          --interval I     poll every source every I instead of its own interval
          --output FILE    the scenario file to write (plain JSON, also JSON5)
          --help           show this help

        Progress is shown on stderr when stderr is a terminal.

        exit status: 0 written, 78 configuration error, 64 bad usage,
                     1 nothing to record or the file cannot be written

        examples:
          sensorwatch record --duration 1h --output day.json5
          sensorwatch record --interval 10s --output long.json5   # until Ctrl-C
          sensorwatch simulate --config new-rules.json5 --scenario day.json5
        """

    @DaemonActor
    static func run(_ args: [String]) async throws(ExitCode) -> ExitCode {
        let options: Options = try CommandSupport.parse(
            args, valued: ["config", "duration", "interval", "output"], help: help)
        let duration: Duration?
        let interval: Duration?
        let output: String
        do {
            duration = try options["duration"].map { try positiveDuration($0, option: "duration") }
            interval = try options["interval"].map { try positiveDuration($0, option: "interval") }
            if let interval, interval < SourceConfiguration.minimumInterval {
                throw Options.UsageError(
                    description:
                        "--interval: must be at least 10ms (a shorter poll interval would keep sensorwatch spinning)")
            }
            guard let path = options["output"] else {
                throw Options.UsageError(description: "--output FILE is required")
            }
            output = path
        } catch {
            Output.stderr("sensorwatch: \(error)\n\n" + help)
            return .usage
        }
        // Signals are routed before anything slow happens (and kept in a pipe since `main`,
        // see SignalSource): an early one ends the recording as a late one does, with a file.
        let signals: SignalSource<Void> = try CommandSupport.withThreads({ () throws(SystemError) in
            try SignalSource(CLI.recordSignals) { _ in () }
        })
        defer { signals.cancel() }

        let configuration: Configuration = try CommandSupport.loadConfiguration(options.configPath)
        let sources = RecordingSession<BootClock>.recordable(configuration.sources)
        guard !sources.isEmpty else {
            Output.stderr("sensorwatch: \(configuration.path): no thermal, hwmon or iio source to record")
            return .failure
        }
        guard AtomicFileWriter.canCreate(output) else {
            Output.stderr("sensorwatch: \(output): cannot write here: \(ErrnoText.words(errno))")
            return .failure
        }
        let clock: BootClock = try CommandSupport.withThreads(BootClock.init)
        let session = RecordingSession(
            sources: sources, interval: interval, duration: duration, clock: clock,
            makeReader: { SourceReaders.plain.make($0, loop: false) },
            log: StreamLog())
        let showProgress = isatty(2) == 1
        let stops = signals.stream
        let recorder = await withTaskGroup(of: Void.self) { group in
            // A signal buffered before the session existed stops it as soon as it runs.
            group.addTask { for await _ in stops { session.stop() } }
            if showProgress { group.addTask { await showProgressLines(session, clock: clock) } }
            let recorder = await session.run()
            group.cancelAll()
            await group.waitForAll()
            return recorder
        }
        if showProgress {
            // What follows (the summary or an error) takes the progress line's place.
            FileDescriptorWriter.writeAll(2, Array("\r\u{1B}[K".utf8))
        }

        guard let scenario = recorder.scenario(step: session.step) else {
            Output.stderr("sensorwatch: no sensor found in the configured sources; nothing written")
            return .failure
        }
        do {
            try AtomicFileWriter(path: output, options: .durable).write(ScenarioWriter.json(scenario))
        } catch {
            Output.stderr("sensorwatch: \(output): cannot write the recording: \(error.reason)")
            return .failure
        }
        if showProgress {
            Output.stderr(progressLine(recorder.progress, done: true) + " → " + output)
        }
        return .success
    }

    /// `--duration`/`--interval`: a duration longer than 0, else a usage error.
    private static func positiveDuration(_ text: String, option: String) throws(Options.UsageError) -> Duration {
        let duration: Duration
        do {
            duration = try DurationParser.parse(text)
        } catch {
            throw Options.UsageError(description: "--\(option): invalid duration \"\(text)\": \(error.message)")
        }
        guard duration > .zero else { throw Options.UsageError(description: "--\(option): must be longer than 0s") }
        return duration
    }

    /// Rewrites one status line on the terminal every second until cancelled.
    private static func showProgressLines(_ session: RecordingSession<BootClock>, clock: BootClock) async {
        repeat {
            let line = "\r\u{1B}[K" + progressLine(session.progress, done: false) + " (Ctrl-C to stop)"
            FileDescriptorWriter.writeAll(2, Array(line.utf8))
        } while (try? await clock.sleep(for: .seconds(1))) != nil
    }

    /// The status line: `recording 9 sensors: 3600 samples, 6m40s` (`recorded` when done).
    static func progressLine(_ p: Recorder.Progress, done: Bool) -> String {
        let sensors = Count.of(p.sensors, "sensor")
        let samples = Count.of(p.samples, "sample")
        return (done ? "recorded " : "recording ")
            + "\(sensors): \(samples), \(NumberText.duration(seconds: p.elapsed.seconds))"
    }
}
