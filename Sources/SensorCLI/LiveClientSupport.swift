#if canImport(Glibc)
import Glibc
#endif
import SensorCore
import SensorLive

/// What `watch` and `top` share as clients of the live stream: where its socket is.
enum LiveClientSupport {
    /// The configuration `--config` names, `$SENSORWATCH_CONFIG`, or the default file when it
    /// exists; nil when none is named and the default is missing (a client needs none).
    static func configuration(_ options: Options) -> Result<Configuration?, ExitCode> {
        let named = options["config"] != nil || getenv("SENSORWATCH_CONFIG").map { $0.pointee != 0 } == true
        if !named && access(options.configPath, F_OK) != 0 { return .success(nil) }
        return CommandSupport.loadConfiguration(options.configPath).map { Optional($0) }
    }

    /// The live socket's path by SPEC §22's rule, asked anew at each connection; nil when the
    /// configuration turns the stream off.
    static func socketPath(_ configuration: Configuration?) -> (@Sendable () -> String?)? {
        let setting = configuration?.liveSocket ?? .runtimeDirectory
        guard LiveSocketPath.client(setting) != nil else { return nil }
        return { LiveSocketPath.client(setting) }
    }
}
