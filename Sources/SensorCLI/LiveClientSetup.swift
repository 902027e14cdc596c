#if canImport(Glibc)
import Glibc
#endif
import SensorConfig
import SensorLive
import SensorRuntime
import SensorTerminal

/// What `watch` and `top` set up alike as clients of the live stream (SPEC §22): the
/// configuration, where the socket is, the signals that end them and the clock they wait on.
struct LiveClientSetup: Sendable {
    /// The configuration `--config` names, `$SENSORWATCH_CONFIG`, or the default file when
    /// this user may read it; nil when none is named and the default is missing or unreadable
    /// (it can hold a password): a client needs none, and any user may run one.
    let configuration: Configuration?
    /// The socket's path by SPEC §22's rule, asked anew at each connection (a daemon started
    /// later may put it in another runtime directory).
    let path: @Sendable () -> String?
    let signals: SignalSource<Int32>
    let clock: BootClock

    /// Sets up `command` (its name for messages) with `options`, taking `signals`; throws the
    /// exit status when it cannot go on, said on stderr.
    static func make(_ options: Options, command: String, signals: [Int32]) throws(ExitCode) -> LiveClientSetup {
        var configuration: Configuration?
        let named = options["config"] != nil || getenv("SENSORWATCH_CONFIG").map { $0.pointee != 0 } == true
        if named || access(options.configPath, R_OK) == 0 {
            configuration = try CommandSupport.loadConfiguration(options.configPath)
        }
        let setting = configuration?.liveSocket ?? .runtimeDirectory
        guard LiveSocketPath.client(setting) != nil else {
            Output.stderr("sensorwatch \(command): the configuration turns the live stream off (liveSocket: false)")
            throw .failure
        }
        return try CommandSupport.withThreads { () throws(SystemError) in
            LiveClientSetup(
                configuration: configuration, path: { LiveSocketPath.client(setting) },
                signals: try SignalSource(signals) { $0 }, clock: try BootClock())
        }
    }

    /// What the process's environment says of its terminal.
    static var terminalEnvironment: TerminalEnvironment {
        TerminalEnvironment { name in getenv(name).flatMap { String(validatingCString: $0) } }
    }
}
