import SensorCore
import SensorSystemd

#if canImport(Glibc)
import Glibc
#endif

/// `sensorwatch history`: alert events read back from the journal (the local one, or the
/// files of one or more journal directories, such as journal-remote's), oldest first.
enum HistoryCommand {
    static let help = """
        usage: sensorwatch history [--since TIME] [--until TIME] [--rule NAME] [--sensor ID]
                                   [--host NAME] [--lines N] [--directory DIR]... [--file FILE]...
                                   [--config PATH] [--json]

        Prints the alert events sensorwatch logged to the journal (firing, resolved,
        repeat), oldest first by their timestamps: one line each (local time, host, rule,
        event, sensor, value, threshold, severity), or one JSON object a line with --json.

        options:
          --since TIME      only events at or after TIME: a local time ("2026-11-29 10:00:00",
                            "2026-11-29 10:00", "2026-11-29"), a time ago ("1h", "-1h",
                            "90m", "1h30m", "2d"; units s m h d w), "today", "yesterday",
                            or "@SECONDS" since the epoch
          --until TIME      only events at or before TIME (the forms of --since)
          --rule NAME       only this rule's events
          --sensor ID       only this sensor's events (e.g. thermal:x86_pkg_temp)
          --host NAME       only the events of this host (its _HOSTNAME)
          --lines N         only the newest N events (still printed oldest first)
          --directory DIR   read the journal files in DIR instead of the system journal,
                            e.g. /var/log/journal/remote of systemd-journal-remote; give it
                            more than once to merge several directories
          --file FILE       read this journal file (repeatable; merged with any --directory)
          --config PATH     the configuration whose trust key says whose entries are the
                            daemon's (default: $SENSORWATCH_CONFIG, else
                            /etc/sensorwatch/sensorwatch.json5 if readable)
          --json            one JSON object per line: time (UTC), host, event, rule, sensor,
                            label, severity, value, threshold (predict rules: then
                            predicted), unit
          --help            show this help

        Only entries the daemon wrote are listed: journald's own fields must say
        _SYSTEMD_UNIT=sensorwatch.service or _UID=0 (or what the trust key lists), and in
        a remote-HOST.journal file _HOSTNAME must be HOST. Look-alikes written by anyone
        else are left out, and counted in a warning on stderr.

        Reading the system journal needs root or membership in the systemd-journal or
        adm group.

        examples:
          sensorwatch history --since today
          sensorwatch history --rule cpu-hot --since 1h --json
          sensorwatch history --directory /var/log/journal/remote --host web1
        """

    static func run(_ args: [String]) async -> ExitCode {
        let options: Options
        switch CommandSupport.parse(
            args, valued: ["since", "until", "rule", "sensor", "host", "lines", "directory", "file", "config"],
            flags: ["json"],
            help: help)
        {
        case .success(let parsed): options = parsed
        case .failure(let code): return code
        }
        var times: [String: UInt64] = [:]
        let now = StateStore.wallClock()
        for name in ["since", "until"] {
            guard let text = options[name] else { continue }
            guard let seconds = HistorySince.parse(text, now: now), seconds >= 0 else {
                return usageError("--\(name): cannot read '\(text)' as a time (see --help)")
            }
            times[name] = UInt64((seconds * 1e6).rounded())
        }
        let query = JournalHistoryReader.Query(
            sinceMicroseconds: times["since"], untilMicroseconds: times["until"], rule: options["rule"],
            sensor: options["sensor"], host: options["host"])
        var newest: Int?
        if let text = options["lines"] {
            guard let n = Int(text), n >= 0 else { return usageError("--lines: '\(text)' is not a count") }
            newest = n
        }
        let sources = options.all("directory").map(JournalHistoryReader.Source.directory)
            + options.all("file").map(JournalHistoryReader.Source.file)
        let trust: JournalTrust
        switch self.trust(options) {
        case .success(let t): trust = t
        case .failure(let code): return code
        }
        var records: [JournalAlertRecord]
        var lookAlikes = 0
        var lastReason = ""
        do {
            records = try JournalHistoryReader(sources: sources, trust: trust).read(query) { reason in
                lookAlikes += 1
                lastReason = reason
            }
        } catch {
            Output.stderr("sensorwatch history: \(error)")
            return .failure
        }
        if lookAlikes > 0 {
            Output.stderr(
                "sensorwatch history: left out \(lookAlikes) look-alike alert entr\(lookAlikes == 1 ? "y" : "ies") the daemon did not write (the last: \(lastReason))")
        }
        if let newest { records = Array(records.suffix(newest)) }
        let lines = options.has("json")
            ? records.map(HistoryFormatter.json) : HistoryFormatter.lines(records, time: HistoryFormatter.localTime)
        for line in lines { Output.stdout(line) }
        return .success
    }

    /// The configuration's `trust`. Without `--config` or `$SENSORWATCH_CONFIG`, a default
    /// file that does not exist, or that this user may not read (it can hold a password),
    /// gives the default trust (the daemon's unit and root): history needs no configuration.
    private static func trust(_ options: Options) -> Result<JournalTrust, ExitCode> {
        let path = options.configPath
        let named = options["config"] != nil || getenv("SENSORWATCH_CONFIG").map { $0.pointee != 0 } == true
        if !named, access(path, R_OK) != 0 {
            let why = errno
            if why == ENOENT { return .success(.daemon) }
            if why == EACCES {
                Output.stderr("sensorwatch history: \(path): \(ErrnoText.words(why)); using the default trust (see --config)")
                return .success(.daemon)
            }
        }
        return CommandSupport.loadConfiguration(path).map(\.trust)
    }

    private static func usageError(_ message: String) -> ExitCode {
        Output.stderr("sensorwatch history: \(message)\n\n\(help)")
        return .usage
    }
}
