public import SensorRuntime
import Synchronization

/// A ``ServiceNotifier`` that keeps what it is told, with counts of the watchdog's pings and
/// of READY for a test to wait on.
public final class RecordingNotifier: ServiceNotifier {
    private let kept = Mutex<[ServiceState]>([])
    /// The watchdog timeout it pretends the manager set.
    public let watchdogTimeout: Duration?
    /// The watchdog's pings so far.
    package let pings = EventCount()
    /// The READY states so far.
    package let readies = EventCount()

    /// A notifier whose manager expects pings within `watchdog` (nil: no watchdog).
    public init(watchdog: Duration? = nil) { watchdogTimeout = watchdog }

    /// Keeps `state` and counts pings and readies.
    public func notify(_ state: ServiceState) {
        kept.withLock { $0.append(state) }
        if state == .watchdog { pings.increment() }
        if case .ready = state { readies.increment() }
    }

    /// Every state told so far, in order.
    public var states: [ServiceState] { kept.withLock { $0 } }

    /// Every datagram sent so far, in order.
    public var sent: [String] { states.map(\.datagram) }
}
