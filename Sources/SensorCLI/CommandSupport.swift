#if canImport(Glibc)
import Glibc
#endif
import SensorConfig
import SensorRuntime
import SensorSystemd

/// Shared steps of the subcommands: parsing with usage errors, loading the configuration.
///
/// A step that ends the command throws the exit code to end with (having said why), so a
/// command reads as its steps: `let options = try CommandSupport.parse(args, help: help)`.
enum CommandSupport {
    /// Parses options, printing help (exit 0) or a usage error (exit 64) when needed.
    /// Throws the exit code to use when the command should not go on.
    static func parse(
        _ args: [String], valued: Set<String> = ["config"], flags: Set<String> = [], arguments: Bool = false,
        help: String
    ) throws(ExitCode) -> Options {
        let options: Options
        do {
            options = try Options(args, valued: valued, flags: flags, arguments: arguments)
        } catch {
            Output.stderr("sensorwatch: \(error)\n\n" + help)
            throw .usage
        }
        if options.has("help") {
            Output.stdout(help)
            throw .success
        }
        return options
    }

    /// What a command that reads the journal reads and whom it trusts there: every
    /// `--directory` (a fleet's collector, SPEC §13), then every `--file`, none meaning the
    /// local journal; and the configuration's ``trust(_:command:)``. Without journald and
    /// without files there is nothing to read: says so, `kept` being what the journal would
    /// have held for the command (`silences are kept in the journal, so none can be listed`).
    static func journal(
        _ options: Options, command: String, kept: String
    ) throws(ExitCode) -> (sources: [JournalHistoryReader.Source], trust: JournalTrust) {
        let sources =
            options.all("directory").map(JournalHistoryReader.Source.directory)
            + options.all("file").map(JournalHistoryReader.Source.file)
        if sources.isEmpty, let missing = SystemJournal.missing() {
            Output.stderr(
                "sensorwatch \(command): \(missing): \(kept); "
                    + "start systemd-journald, or read journal files with --directory DIR or --file FILE")
            throw .failure
        }
        return (sources, try trust(options, command: command))
    }

    /// The configuration's `trust` (SPEC §17) for a command that reads the journal. Without
    /// `--config` or `$SENSORWATCH_CONFIG`, a default file that does not exist, or that this
    /// user may not read (it can hold a password), gives the default trust (the daemon's unit
    /// and root): such commands need no configuration.
    static func trust(_ options: Options, command: String) throws(ExitCode) -> JournalTrust {
        let path = options.configPath
        let named = options["config"] != nil || getenv("SENSORWATCH_CONFIG").map { $0.pointee != 0 } == true
        if !named, access(path, R_OK) != 0 {
            let why = errno
            if why == ENOENT { return .daemon }
            if why == EACCES {
                Output.stderr(
                    "sensorwatch \(command): \(path): \(ErrnoText.words(why)); using the default trust (see --config)")
                return .daemon
            }
        }
        return try loadConfiguration(path).trust
    }

    /// Loads the configuration, printing every error (one per line) on failure.
    static func loadConfiguration(_ path: String) throws(ExitCode) -> Configuration {
        do {
            return try ConfigLoader.load(path: path)
        } catch {
            for e in error.errors { Output.stderr(e.description) }
            throw .config
        }
    }

    /// Makes what needs a thread of its own (the boot clock, notify's descriptor waiter);
    /// when the system refuses the thread (a thread limit), says so and gives `EX_OSERR`.
    static func withThreads<T>(_ make: () throws(SystemError) -> T) throws(ExitCode) -> T {
        do {
            return try make()
        } catch {
            Output.stderr("sensorwatch: \(error)")
            throw .osError
        }
    }
}
