#if canImport(Glibc)
import Glibc
#endif
import SensorConfig
import SensorCore
import SensorRuntime
import SensorSystemd

/// `sensorwatch status`: what the running daemon sees now, read from its status file (SPEC §19).
enum StatusCommand {
    static let help = """
        usage: sensorwatch status [--config PATH] [--file PATH] [--json | --check]

        Shows what the running daemon sees now, from the status file it keeps: the
        firing alerts first (then pending ones), then every sensor with its value,
        limits and health. An alert a silence holds (sensorwatch silence) is marked
        "silenced until TIME" and left out of --check's WARNING/CRITICAL; silences are
        read from the journal, which needs root or the systemd-journal or adm group.

        options:
          --file PATH    the status file (default: the configuration's statusFile,
                         else status.json in $RUNTIME_DIRECTORY, /run/sensorwatch
                         for root, else $XDG_RUNTIME_DIR/sensorwatch, then
                         /run/sensorwatch)
          --config PATH  configuration file whose statusFile to read (default:
                         $SENSORWATCH_CONFIG, else /etc/sensorwatch/sensorwatch.json5,
                         when it exists)
          --json         print the status file itself
          --check        a monitoring-plugins check (Nagios, Icinga, Checkmk, Zabbix):
                         one line "SENSORWATCH STATE - text | perfdata"; exit 0 OK,
                         1 a warning alert fires, 2 a critical alert fires, 3 UNKNOWN
                         (no status file, or one older than 30 s: a frozen daemon)
          --help         show this help

        exit status: 0 shown, 1 no status file or an unreadable one, 78 configuration
        error, 64 bad usage (with --check: 0, 1, 2 or 3 as above)

        examples:
          sensorwatch status
          sensorwatch status --json | jq '.alerts[] | select(.state == "firing")'
          sensorwatch status --check    # as a Nagios/Icinga check_command
        """

    /// The status file a client reads when neither `--file` nor the configuration names one:
    /// `status.json` in the runtime directory (``RuntimeDirectory``), so `status` beside
    /// `make run` finds it.
    static func runtimeStatusFile() -> String {
        RuntimeDirectory.clientFile("status.json")
    }

    static func run(_ args: [String]) async throws(ExitCode) -> ExitCode {
        let checking = args.contains("--check")
        let options: Options
        do {
            options = try CommandSupport.parse(args, valued: ["config", "file"], flags: ["json", "check"], help: help)
        } catch {
            // A check's every problem is UNKNOWN (the monitoring-plugins guidelines), a bad command line too.
            guard checking, error != .success else { throw error }
            Output.stdout(StatusFormatter.unknown("bad command line (see sensorwatch status --help)"))
            return .checkUnknown
        }
        if options.has("json") && checking {
            Output.stdout(StatusFormatter.unknown("--json and --check print different things; give one"))
            return .checkUnknown
        }
        let path: String
        do {
            path = try statusPath(options)
        } catch {
            guard checking else { throw error }
            Output.stdout(StatusFormatter.unknown("the configuration cannot be read"))
            return .checkUnknown
        }
        let bytes: [UInt8]
        do {
            bytes = try StatusReport.bytes(of: path)
        } catch {
            let missing = access(path, F_OK) != 0 && errno == ENOENT
            let why =
                missing
                ? "no status file at \(path) (is sensorwatch running?)" : "cannot read \(path): \(error.message)"
            if checking {
                Output.stdout(StatusFormatter.unknown(why))
                return .checkUnknown
            }
            Output.stderr("sensorwatch: " + why)
            return .failure
        }
        var report: StatusReport
        do {
            report = try StatusReport.decode(bytes, path: path)
        } catch {
            if options.has("json") {
                FileDescriptorWriter.writeAll(1, bytes)
                return .success
            }
            if checking {
                Output.stdout(StatusFormatter.unknown("\(path) is not a status file: \(error.message)"))
                return .checkUnknown
            }
            Output.stderr("sensorwatch: \(path): not a status file: \(error.message)")
            return .failure
        }
        let silenced = markSilenced(&report, options: options)
        if options.has("json") {
            // The file itself, unless a silence holds an alert (SPEC §21).
            if silenced {
                Output.stdout(String(report.json.dropLast()))
            } else {
                FileDescriptorWriter.writeAll(1, bytes)
            }
            return .success
        }
        let now = SystemWallClock().now.seconds
        if checking {
            if now - report.updated > StatusFormatter.freshFor {
                Output.stdout(
                    StatusFormatter.unknown(
                        "\(path) was last updated at \(RFC3339.format(report.updated)), more than \(Int(StatusFormatter.freshFor)) s ago (the daemon may be frozen or stopped)"
                    ))
                return .checkUnknown
            }
            let (line, code) = StatusFormatter.check(report)
            Output.stdout(line)
            return code
        }
        Output.stdout(
            StatusFormatter.person(report, now: now) {
                HistoryFormatter.localTime(UInt64(max(0, $0) * 1_000_000))
            })
        return .success
    }

    /// Sets `silencedUntil` on the firing alerts an active silence of the local journal
    /// holds (SPEC §21); whether any is. A journal that cannot be read (no access) marks none.
    private static func markSilenced(_ report: inout StatusReport, options: Options) -> Bool {
        // A configuration that cannot be loaded was reported with the status file's path;
        // silences then go by the default trust.
        var trust = JournalTrust.daemon
        if let t = try? CommandSupport.trust(options, command: "status") { trust = t }
        guard let book = try? JournalSilenceReader(trust: trust).read().book else { return false }
        let now = SystemWallClock().now.microseconds
        let host = NotifyCommand.hostName()
        var any = false
        for i in report.alerts.indices where report.alerts[i].state == .firing {
            let a = report.alerts[i]
            guard let s = book.silencing(rule: a.rule, sensor: a.sensor, host: host, atMicroseconds: now) else {
                continue
            }
            report.alerts[i].silencedUntil = Double(s.endsMicroseconds) / 1e6
            any = true
        }
        return any
    }

    /// `--file`, else the configuration's `statusFile` (the default configuration only when
    /// it exists), else `status.json` in the runtime directory.
    private static func statusPath(_ options: Options) throws(ExitCode) -> String {
        if let file = options["file"] { return file }
        let fallback = runtimeStatusFile()
        let named = options["config"] != nil || getenv("SENSORWATCH_CONFIG") != nil
        if !named && access(options.configPath, F_OK) != 0 { return fallback }
        return try CommandSupport.loadConfiguration(options.configPath).statusFile ?? fallback
    }
}
