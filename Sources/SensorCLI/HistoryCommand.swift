import SensorCore
import SensorSystemd

/// `sensorwatch history`: alert events read back from the journal, oldest first.
enum HistoryCommand {
    static let help = """
        usage: sensorwatch history [--since TIME] [--rule NAME] [--sensor ID] [--json]

        Prints the alert events sensorwatch logged to the journal (firing, resolved,
        repeat), oldest first: one line each (local time, rule, event, sensor, value,
        threshold, severity), or one JSON object a line with --json.

        options:
          --since TIME      only events at or after TIME: a local time ("2026-11-29 10:00:00",
                            "2026-11-29 10:00", "2026-11-29"), a time ago ("1h", "-1h",
                            "90m", "1h30m", "2d"; units s m h d w), "today", "yesterday",
                            or "@SECONDS" since the epoch
          --rule NAME       only this rule's events
          --sensor ID       only this sensor's events (e.g. thermal:thermal_zone0)
          --json            one JSON object per line: time (UTC), event, rule, sensor,
                            label, severity, value, threshold (predict rules: then
                            predicted), unit
          --directory DIR   read the journal files in DIR instead of the system journal
          --help            show this help

        Reading the system journal needs root or membership in the systemd-journal or
        adm group.
        """

    static func run(_ args: [String]) async -> ExitCode {
        var query = JournalHistoryReader.Query()
        var json = false
        var directory: String?
        var i = 0
        func value(_ name: String) -> String? {
            if args[i].hasPrefix(name + "=") { return String(args[i].dropFirst(name.count + 1)) }
            guard i + 1 < args.count else { return nil }
            i += 1
            return args[i]
        }
        while i < args.count {
            let arg = args[i]
            let name = arg.split(separator: "=", maxSplits: 1).first.map(String.init) ?? arg
            switch name {
            case "--help", "-h":
                Output.stdout(help)
                return .success
            case "--json":
                json = true
            case "--since", "--rule", "--sensor", "--directory":
                guard let v = value(name) else { return usageError("\(name) needs a value") }
                switch name {
                case "--since":
                    guard let seconds = HistorySince.parse(v, now: StateStore.wallClock()), seconds >= 0 else {
                        return usageError("--since: cannot read '\(v)' as a time (see --help)")
                    }
                    query.sinceMicroseconds = UInt64(seconds * 1e6)
                case "--rule": query.rule = v
                case "--sensor": query.sensor = v
                default: directory = v
                }
            default:
                return usageError("unknown option '\(arg)'")
            }
            i += 1
        }
        let records: [JournalAlertRecord]
        do {
            records = try JournalHistoryReader(directory: directory).read(query)
        } catch {
            Output.stderr("sensorwatch history: \(error)")
            return .failure
        }
        for r in records {
            Output.stdout(json ? HistoryFormatter.json(r) : HistoryFormatter.line(r, time: HistoryFormatter.localTime(r.realtimeMicroseconds)))
        }
        return .success
    }

    private static func usageError(_ message: String) -> ExitCode {
        Output.stderr("sensorwatch history: \(message)\n\n\(help)")
        return .usage
    }
}
