import Glibc
import SensorConfig
import SensorCore
import SensorHTTP
import SensorNotify
import SensorRuntime
import SensorSystemd

#if canImport(Glibc)
#endif

/// `sensorwatch notify`: follows the journal and delivers alert events to the targets of
/// the configuration's `notify` list (SPEC §17).
enum NotifyCommand {
    static let help = """
        usage: sensorwatch notify [--config PATH] [--directory DIR]... [--state FILE] [--test]

        Follows the journal (the local one, or with --directory the journal files of a
        fleet's collector) and delivers every alert event (firing, resolved, repeat) to the
        targets of the configuration's notify list, each target on its own, in journal
        order, retrying after 1 s, 2 s, 4 s ... at most 5 min apart. Each target's place in
        the journal is kept, so a restart neither loses nor repeats an event.

        Only entries the daemon wrote are delivered: journald's own fields must say
        _SYSTEMD_UNIT=sensorwatch.service or _UID=0 (the configuration's trust key replaces
        these; read at start), and with --directory a remote-HOST.journal file must hold
        only HOST's entries. Look-alikes are skipped, with a warning a minute at most.

        Signals: SIGHUP re-reads the notify list; SIGTERM and SIGINT stop (within a second).

        options:
          --config PATH    configuration file (default: $SENSORWATCH_CONFIG,
                           else /etc/sensorwatch/sensorwatch.json5)
          --directory DIR  follow the journal files in DIR (e.g. /var/log/journal/remote)
                           instead of the local journal; repeatable
          --state FILE     where the cursors are kept (default: $STATE_DIRECTORY/notify.json,
                           else /var/lib/sensorwatch/notify.json)
          --test           send a made-up firing and resolved event (rule sensorwatch-test,
                           sensor sim:test, severity info) to every target once, filters
                           aside, print each outcome and exit
          --help           show this help

        exit status: 0 stopped by a signal (--test: all delivered), 1 a --test delivery
        failed, 78 configuration error, 64 bad usage

        examples:
          sensorwatch notify --test
          sensorwatch notify --config /etc/sensorwatch/sensorwatch.json5
          sensorwatch notify --directory /var/log/journal/remote --state /var/lib/sensorwatch-notify/fleet.json
        """

    /// The signals `notify` handles (stop, stop, re-read the list).
    static let signals = [SIGTERM, SIGINT, SIGHUP]

    @DaemonActor
    static func run(_ args: [String]) async throws(ExitCode) -> ExitCode {
        let options: Options = try CommandSupport.parse(
            args, valued: ["config", "directory", "state"], flags: ["test"], help: help)
        let path = options.configPath
        if options.has("test") { return try await test(configPath: path) }
        let (signals, waiter, clock): (SignalSource<DaemonSignal>, DescriptorWaiter, BootClock) =
            try CommandSupport.withThreads({ () throws(SystemError) in
                (try SignalSource(Self.signals, as: DaemonSignal.init), try DescriptorWaiter(), try BootClock())
            })
        defer { signals.cancel() }
        let configuration: Configuration = try CommandSupport.loadConfiguration(path)
        let statePath =
            options["state"]
            ?? StateStore.directoryFromEnvironment() + "/" + NotifyStateStore.fileName
        let directories = options.all("directory")
        let log = JournalLog(sink: JournalAlertSink(fallback: StreamAlertSink()))
        // The local daemon's wakes, for the local journal only: a fleet's notify reads what
        // systemd-journal-remote writes, which tells its readers at once. Without the wake
        // (notify run by hand, not as root) alerts come when journald tells its readers.
        var wake: NotifyWakeSocket?
        do {
            if directories.isEmpty { wake = try NotifyWakeSocket(waiter: waiter) }
        } catch {
            log.log(.notice, "\(error); alerts reach the targets when journald tells its readers (within 250 ms)")
        }
        // One tally for every lane: each reads every entry, and a forged one is one warning.
        let lookAlikes = JournalLookAlikeTally(clock: clock, log: log)
        let trust = configuration.trust
        let environment = Notifier<BootClock>.Environment(
            journals: directories.isEmpty ? ["local"] : directories,
            makeSource: { journal, cursor in
                try JournalEventFollower(
                    source: journal == "local" ? .local : .directory(journal), after: cursor, waiter: waiter,
                    trust: trust, lookAlike: { lookAlikes.skipped(cursor: $0, reason: $1) })
            },
            makeDelivery: { delivery(for: $0, memory: $1, clock: clock, waiter: waiter, log: log) },
            store: NotifyStateStore(path: statePath),
            notifier: SystemdNotifier(),
            log: log,
            reload: { () throws(ConfigErrors) -> [NotifyTarget] in try ConfigLoader.load(path: path).notify },
            wake: wake,
            readSilences: { silences(directories: directories, trust: trust, log: log) }
        )
        if configuration.notify.isEmpty {
            log.log(.warning, "\(path): the notify list is empty; nothing will be delivered until it has a target")
        }
        let notifier = Notifier(targets: configuration.notify, environment: environment, clock: clock)
        await notifier.run(signals: signals.stream)
        return .success
    }

    /// The silences in the journals followed (SPEC §21); a journal that cannot be read is
    /// logged and the notifier starts without its silences.
    static func silences(directories: [String], trust: JournalTrust, log: any DaemonLog) -> SilenceBook {
        do {
            let result = try JournalSilenceReader(
                sources: directories.map(JournalHistoryReader.Source.directory), trust: trust
            ).read()
            if result.untrusted > 0 {
                log.log(.warning, "\(result.untrusted) silence entries skipped: not written by root or a trusted unit")
            }
            return result.book
        } catch {
            log.log(.error, "cannot read the silences from the journal: \(error); none hold until new ones are written")
            return SilenceBook()
        }
    }

    /// The delivery of `target`.
    @DaemonActor
    static func delivery(
        for target: NotifyTarget, memory: NotifyTargetMemory, clock: BootClock, waiter: DescriptorWaiter,
        log: any DaemonLog
    ) -> any NotifyDelivery {
        switch target.kind {
        case .exec(let argv):
            return ExecDelivery(argv: argv, timeout: target.timeout, clock: clock, waiter: waiter)
        case .alertmanager(let url):
            return AlertmanagerDelivery(
                baseURL: url, timeout: target.timeout, poster: CurlHTTPPoster(clock: clock), clock: clock,
                wallClock: SystemWallClock(), log: log, firing: memory.firing, keep: memory.keep,
                silences: memory.silences, keepSilences: memory.keepSilences)
        }
    }

    /// `--test`: each target gets the made-up firing and resolved events once, no retries,
    /// no kept state; one line per target and event.
    @DaemonActor
    static func test(configPath: String) async throws(ExitCode) -> ExitCode {
        let configuration: Configuration = try CommandSupport.loadConfiguration(configPath)
        guard !configuration.notify.isEmpty else {
            Output.stderr("\(configPath): the notify list is empty: nothing to test")
            return .failure
        }
        let events = NotifyEvent.testEvents(now: SystemWallClock().now.microseconds, host: hostName())
        let (waiter, clock): (DescriptorWaiter, BootClock) = try CommandSupport.withThreads({ () throws(SystemError) in
            (try DescriptorWaiter(), try BootClock())
        })
        var allDelivered = true
        for target in configuration.notify {
            let delivery = delivery(
                for: target, memory: NotifyTargetMemory(firing: []) { _ in }, clock: clock, waiter: waiter,
                log: StreamLog())
            for event in events {
                let outcome = await delivery.deliver(event)
                let text: String
                switch outcome {
                case .delivered: text = "delivered"
                case .retry(let why), .failed(let why):
                    text = "not delivered: " + why
                    allDelivered = false
                }
                Output.stdout("\(target.name): \(event.kind.rawValue) \(text)")
            }
        }
        return allDelivered ? .success : .failure
    }

    /// This machine's host name, as journald records it in `_HOSTNAME`.
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
