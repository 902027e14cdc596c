#if canImport(Glibc)
import Glibc
#endif
import SensorConfig
import SensorDaemon
import SensorLive
import SensorRuntime
import SensorSysfs

/// `top` without a daemon (SPEC §22): the configuration's readers and rules run in this
/// process — the daemon's own `Daemon` with `run`'s readers (`SourceReaders`) — and serve the live
/// stream on a socket in a private directory, which `top` then follows like the daemon's.
/// Nothing of the daemon's is written: no journal entry, status file, metrics or state.
struct TopStandalone: Sendable {
    /// The private directory and the socket in it.
    let directory: String
    var socket: String { directory + "/live.sock" }

    /// Makes the private directory (mode 0700) under `$XDG_RUNTIME_DIR`, else (or when that
    /// cannot be written) `/tmp`; nil when neither takes it.
    init?() {
        let runtime = getenv("XDG_RUNTIME_DIR").flatMap { String(validatingCString: $0) }.flatMap {
            $0.isEmpty ? nil : $0
        }
        for base in [runtime, "/tmp"].compactMap({ $0 }) {
            var template = Array((base + "/sensorwatch-top-XXXXXX").utf8CString)
            if let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) {
                directory = String(cString: made)
                return
            }
        }
        return nil
    }

    /// Runs the readers and rules of `configuration` until the task is cancelled or `stop`
    /// asks; the socket and its directory are removed at the end.
    func run(_ configuration: Configuration, clock: BootClock, stop: AsyncStream<DaemonSignal>) async {
        var own = configuration
        own.statusFile = nil
        own.metrics = nil
        own.liveSocket = .path(socket)
        var environment = Daemon<BootClock>.Environment(
            sink: DiscardingAlertSink(), reload: { [own] () throws(ConfigErrors) -> Configuration in own },
            // The readers `run` has, a BMC's included (its event log is the daemon's to keep).
            makeReader: { SourceReaders.plain.make($0, loop: true) }, version: CLI.version)
        environment.publishers = [
            LiveStreamPublisher(
                path: socket, host: NotifyCommand.hostName(), silences: JournalLiveSilenceSource(trust: own.trust))
        ]
        let daemon = await Daemon(configuration: own, environment: environment, clock: clock)
        await daemon.run(signals: stop)
        unlink(socket)
        rmdir(directory)
    }
}
