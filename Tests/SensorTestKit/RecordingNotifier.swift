public import SensorRuntime
import Synchronization

/// A ``ServiceNotifier`` that keeps what it is told, with counts of the watchdog's pings and
/// of `READY=1` for a test to wait on.
public final class RecordingNotifier: ServiceNotifier {
    private let kept = Mutex<[String]>([])
    /// The watchdog timeout it pretends the manager set.
    public let watchdogTimeout: Duration?
    /// The watchdog's pings so far.
    package let pings = EventCount()
    /// The `READY=1` messages so far.
    package let readies = EventCount()

    /// A notifier whose manager expects pings within `watchdog` (nil: no watchdog).
    public init(watchdog: Duration? = nil) { watchdogTimeout = watchdog }

    /// Keeps `assignments` and counts pings and readies.
    public func notify(_ assignments: String) {
        kept.withLock { $0.append(assignments) }
        if assignments == "WATCHDOG=1" { pings.increment() }
        if assignments.hasPrefix("READY=1") { readies.increment() }
    }

    /// Everything sent so far, in order.
    public var sent: [String] { kept.withLock { $0 } }
}
