import SensorCore
import SensorSystemd

/// `sensorwatch history`: alert events read back from the journal (the local one, or the
/// files of one or more journal directories, such as journal-remote's), oldest first.
enum HistoryCommand {
    static let help = """
        usage: sensorwatch history [--since TIME] [--rule NAME] [--sensor ID] [--host NAME]
                                   [--directory DIR]... [--json]

        Prints the alert events sensorwatch logged to the journal (firing, resolved,
        repeat), oldest first by their timestamps: one line each (local time, host, rule,
        event, sensor, value, threshold, severity), or one JSON object a line with --json.

        options:
          --since TIME      only events at or after TIME: a local time ("2026-11-29 10:00:00",
                            "2026-11-29 10:00", "2026-11-29"), a time ago ("1h", "-1h",
                            "90m", "1h30m", "2d"; units s m h d w), "today", "yesterday",
                            or "@SECONDS" since the epoch
          --rule NAME       only this rule's events
          --sensor ID       only this sensor's events (e.g. thermal:thermal_zone0)
          --host NAME       only the events of this host (its _HOSTNAME)
          --directory DIR   read the journal files in DIR instead of the system journal,
                            e.g. /var/log/journal/remote of systemd-journal-remote; give it
                            more than once to merge several directories
          --json            one JSON object per line: time (UTC), host, event, rule, sensor,
                            label, severity, value, threshold, unit
          --help            show this help

        Reading the system journal needs root or membership in the systemd-journal or
        adm group.
        """

    static func run(_ args: [String]) async -> ExitCode {
        let options: Options
        switch CommandSupport.parse(
            args, valued: ["since", "rule", "sensor", "host", "directory"], flags: ["json"], help: help)
        {
        case .success(let parsed): options = parsed
        case .failure(let code): return code
        }
        var query = JournalHistoryReader.Query(rule: options["rule"], sensor: options["sensor"], host: options["host"])
        if let since = options["since"] {
            guard let seconds = HistorySince.parse(since, now: StateStore.wallClock()), seconds >= 0 else {
                Output.stderr("sensorwatch history: --since: cannot read '\(since)' as a time (see --help)\n\n\(help)")
                return .usage
            }
            query.sinceMicroseconds = UInt64(seconds * 1e6)
        }
        let records: [JournalAlertRecord]
        do {
            records = try JournalHistoryReader(directories: options.all("directory")).read(query)
        } catch {
            Output.stderr("sensorwatch history: \(error)")
            return .failure
        }
        let lines = options.has("json")
            ? records.map(HistoryFormatter.json) : HistoryFormatter.lines(records, time: HistoryFormatter.localTime)
        for line in lines { Output.stdout(line) }
        return .success
    }
}
