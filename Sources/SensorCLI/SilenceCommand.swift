import Glibc
import SensorConfig
import SensorCore
import SensorRuntime
import SensorSystemd

#if canImport(Glibc)
#endif

/// `sensorwatch silence add|list|expire` (SPEC §21): a person's "not now" for some alerts,
/// kept as journal entries beside the alerts.
enum SilenceCommand {
    static let help = """
        usage: sensorwatch silence add [--rule GLOB] [--sensor GLOB] [--host GLOB]
                                       (--for DURATION | --until TIME) [--comment TEXT]
               sensorwatch silence list [--json] [--directory DIR]... [--file FILE]...
               sensorwatch silence expire ID

        A silence stops `sensorwatch notify` from paging for the alerts it matches while it
        holds; the daemon keeps logging them. An alert that still fires when the silence
        ends (or is expired) is paged then, once. Alertmanager targets get the silence
        created (and expired) in Alertmanager. Silences are journal entries: only those
        written by root (or by a unit of the trust list) count, so add them as root.

        add      prints the new silence's id. Matchers are globs (* ? [a-z]); one left out
                 matches everything; at least one must be given.
                   --rule GLOB       the alert rule's name, e.g. "cpu-*"
                   --sensor GLOB     the sensor id, e.g. "hwmon:nct6775*"
                   --host GLOB       the host that logged the alert (_HOSTNAME)
                   --for DURATION    how long: "2h", "30m", "1h30m", "1d"
                   --until TIME      until when: 2026-12-02T18:00:00Z, "2026-12-02 18:00"
                                     (local time), @SECONDS since the epoch
                   --comment TEXT    why, for whoever looks later
                   --config PATH     the configuration whose rules a --rule should match
                                     (only for the note that it matches none)
        list     the active silences: id, matchers, start, end, who, comment;
                 --json prints one JSON array; --directory/--file read journal files
                 (a fleet's collector) instead of the system journal
        expire   ends the silence ID now

        Reading the system journal (list, expire) needs root or membership in the
        systemd-journal or adm group.

        exit status: 0 done, 1 the journal could not be read or written (or no such
        silence), 64 bad usage, 78 a glob, duration or time that cannot be read

        examples:
          sudo sensorwatch silence add --rule 'fan-*' --host web1 --for 2h --comment "fan swap"
          sensorwatch silence list
          sudo sensorwatch silence expire 6f0c1d2e-8a7b-4c3d-9e1f-0a2b3c4d5e6f
        """

    static func run(_ args: [String]) async throws(ExitCode) -> ExitCode {
        switch args.first {
        case "add": return try add(Array(args.dropFirst()))
        case "list": return try list(Array(args.dropFirst()))
        case "expire": return try expire(Array(args.dropFirst()))
        case "--help", "-h", "help":
            Output.stdout(help)
            return .success
        case let other?: return usageError("unknown subcommand '\(other)' (add, list, expire)")
        case nil: return usageError("give a subcommand: add, list or expire")
        }
    }

    private static func add(_ args: [String]) throws(ExitCode) -> ExitCode {
        let options: Options = try parse(args, valued: ["rule", "sensor", "host", "for", "until", "comment", "config"])
        let silence: Silence
        do {
            silence = try SilenceRequest.silence(
                options, now: SystemWallClock().now.microseconds, user: userName(), id: Silence.newID())
        } catch {
            switch error {
            case .usage(let message): return usageError(message)
            case .value(let message):
                Output.stderr("sensorwatch silence: \(DisplayText.escaped(message))")
                return .config
            }
        }
        do {
            try JournalSilenceWriter().write(silence)
        } catch {
            Output.stderr("sensorwatch silence: \(error)")
            return .failure
        }
        for note in notes(for: silence, options: options) { Output.stderr("sensorwatch silence: note: " + note) }
        if getuid() != 0 {
            Output.stderr(
                "sensorwatch silence: note: written as uid \(getuid()), not root: notify, status and list ignore it unless the trust list names its writer"
            )
        }
        Output.stdout(silence.id)
        return .success
    }

    private static func list(_ args: [String]) throws(ExitCode) -> ExitCode {
        let options: Options = try parse(args, valued: ["directory", "file", "config"], flags: ["json"])
        let (sources, trust) = try CommandSupport.journal(
            options, command: "silence", kept: "silences are kept in the journal, so none can be listed")
        guard let book = read(sources, trust: trust) else { return .failure }
        let active = book.active(atMicroseconds: SystemWallClock().now.microseconds)
        if options.has("json") {
            Output.stdout(SilenceFormatter.jsonArray(active))
        } else if active.isEmpty {
            Output.stdout("no active silences")
        } else {
            for line in SilenceFormatter.table(active, time: HistoryFormatter.localTime) { Output.stdout(line) }
        }
        return .success
    }

    private static func expire(_ args: [String]) throws(ExitCode) -> ExitCode {
        let options: Options = try parse(args, valued: ["config"], arguments: true)
        guard options.arguments.count == 1, let id = options.arguments.first else {
            return usageError("give the id of one silence (see `sensorwatch silence list`)")
        }
        let trust: JournalTrust = try CommandSupport.trust(options, command: "silence")
        if let missing = SystemJournal.missing() {
            Output.stderr(
                "sensorwatch silence: \(missing): silences are kept in the journal, so none can be expired; "
                    + "start systemd-journald and give the command again")
            return .failure
        }
        guard let book = read([], trust: trust) else { return .failure }
        let now = SystemWallClock().now.microseconds
        guard var silence = book.silences[id] else {
            Output.stderr("sensorwatch silence: no silence \(DisplayText.escaped(id)) in the journal")
            return .failure
        }
        guard silence.isActive(atMicroseconds: now) else {
            Output.stderr(
                "sensorwatch silence: silence \(id) already ended at \(RFC3339.format(microseconds: silence.endsMicroseconds))"
            )
            return .failure
        }
        silence.endsMicroseconds = now
        silence.expired = true
        silence.by = userName()
        do {
            try JournalSilenceWriter().write(silence)
        } catch {
            Output.stderr("sensorwatch silence: \(error)")
            return .failure
        }
        Output.stdout("expired \(id)")
        return .success
    }

    /// The silences in the journal, or nil after printing why they cannot be read; entries
    /// that others wrote are counted on stderr.
    private static func read(_ sources: [JournalHistoryReader.Source], trust: JournalTrust) -> SilenceBook? {
        do {
            let result = try JournalSilenceReader(sources: sources, trust: trust).read()
            if result.untrusted > 0 {
                Output.stderr(
                    "sensorwatch silence: \(result.untrusted) silence entr\(result.untrusted == 1 ? "y" : "ies") skipped: not written by root or a trusted unit"
                )
            }
            return result.book
        } catch {
            Output.stderr("sensorwatch silence: \(error)")
            return nil
        }
    }

    /// What a person may want to know about a new silence: that its `--rule` names no rule
    /// of the configuration, or its `--sensor` no sensor the daemon sees (its status file).
    /// Either is still kept: a rule or sensor may come later, or live on another host.
    private static func notes(for silence: Silence, options: Options) -> [String] {
        var notes: [String] = []
        let configuration = try? ConfigLoader.load(path: options.configPath)
        if let rule = silence.rule, let configuration, !configuration.rules.contains(where: { rule.matches($0.name) }) {
            notes.append("--rule '\(rule.pattern)' matches no rule of \(configuration.path) now; the silence is kept")
        }
        let statusPath = configuration?.statusFile ?? StatusCommand.runtimeStatusFile()
        if let sensor = silence.sensor, let bytes = try? StatusReport.bytes(of: statusPath),
            let report = try? StatusReport.decode(bytes, path: statusPath),
            !report.sensors.contains(where: { sensor.matches($0.id) })
        {
            notes.append("--sensor '\(sensor.pattern)' matches no sensor the daemon reads now; the silence is kept")
        }
        return notes.map(DisplayText.escaped)
    }

    private static func parse(
        _ args: [String], valued: Set<String>, flags: Set<String> = [], arguments: Bool = false
    ) throws(ExitCode) -> Options {
        try CommandSupport.parse(args, valued: valued, flags: flags, arguments: arguments, help: help)
    }

    /// The user running the command, from the uid: its name, else `uid N`.
    static func userName() -> String {
        let uid = getuid()
        var pwd = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &pwd, &buffer, buffer.count, &result) == 0, result != nil, let name = pwd.pw_name,
            let text = String(validatingCString: name), !text.isEmpty
        else { return "uid \(uid)" }
        return text
    }

    private static func usageError(_ message: String) -> ExitCode {
        Output.stderr("sensorwatch silence: \(message)\n\n\(help)")
        return .usage
    }
}
