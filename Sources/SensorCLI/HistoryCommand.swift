import Glibc
import SensorConfig
import SensorRuntime
import SensorSystemd
import SensorCore
#if canImport(Glibc)
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
        Silences (sensorwatch silence) are listed among them.

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

    static func run(_ args: [String]) async throws(ExitCode) -> ExitCode {
        let options: Options = try CommandSupport.parse(
            args, valued: ["since", "until", "rule", "sensor", "host", "lines", "directory", "file", "config"],
            flags: ["json"],
            help: help)

        var times: [String: UInt64] = [:]
        let now = SystemWallClock().now.seconds
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
        let (sources, trust) = try CommandSupport.journal(
            options, command: "history",
            kept: "the daemon's alerts are kept in the journal, so there is nothing to read")
        let records: [JournalAlertRecord]
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
                "sensorwatch history: left out \(lookAlikes) look-alike alert entr\(lookAlikes == 1 ? "y" : "ies") the daemon did not write (the last: \(lastReason))"
            )
        }
        let silences = silenceRecords(sources: sources, query: query, trust: trust)
        var lines =
            options.has("json")
            ? HistoryFormatter.jsonLines(records, silences: silences)
            : HistoryFormatter.lines(records, silences: silences, time: HistoryFormatter.localTime)
        if let newest { lines = Array(lines.suffix(newest)) }
        for line in lines { Output.stdout(line) }
        return .success
    }

    /// The silence entries (SPEC §21) in the query's time span whose matchers take its rule,
    /// sensor and host; none when they cannot be read (the events were).
    private static func silenceRecords(
        sources: [JournalHistoryReader.Source], query: JournalHistoryReader.Query, trust: JournalTrust
    ) -> [JournalSilenceReader.Record] {
        let all = (try? JournalSilenceReader(sources: sources, trust: trust).read().records) ?? []
        return all.filter { r in
            let s = r.silence
            if let since = query.sinceMicroseconds, r.realtimeMicroseconds < since { return false }
            if let until = query.untilMicroseconds, r.realtimeMicroseconds > until { return false }
            if let rule = query.rule, !(s.rule?.matches(rule) ?? true) { return false }
            if let sensor = query.sensor, !(s.sensor?.matches(sensor) ?? true) { return false }
            if let host = query.host, !(s.host?.matches(host) ?? true) { return false }
            return true
        }
    }

    private static func usageError(_ message: String) -> ExitCode {
        Output.stderr("sensorwatch history: \(message)\n\n\(help)")
        return .usage
    }
}
