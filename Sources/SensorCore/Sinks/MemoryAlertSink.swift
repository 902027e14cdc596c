package import SensorRuntime
import Synchronization

/// Keeps every event, fault and appearance in memory, for tests and for `simulate`.
public final class MemoryAlertSink: AlertSink {
    private let store = Mutex<([AlertEvent], [SensorFault], [SensorPresence])>(([], [], []))

    /// A sink that holds nothing yet.
    public init() {}

    /// How many events and faults have come (tests wait for them: `receivedEvents.until(n)`).
    package let receivedEvents = EventCount(), receivedFaults = EventCount()

    /// Keeps the event and counts it.
    public func emit(_ event: AlertEvent) {
        store.withLock { $0.0.append(event) }
        receivedEvents.increment()
    }
    /// Keeps the fault and counts it.
    public func emit(_ fault: SensorFault) {
        store.withLock { $0.1.append(fault) }
        receivedFaults.increment()
    }
    /// Keeps the appearance or disappearance.
    public func emit(_ presence: SensorPresence) { store.withLock { $0.2.append(presence) } }

    /// The events received so far, in arrival order.
    public var events: [AlertEvent] { store.withLock { $0.0 } }
    /// The faults received so far, in arrival order.
    public var faults: [SensorFault] { store.withLock { $0.1 } }
    /// The sensors that appeared or went so far, in arrival order.
    public var presences: [SensorPresence] { store.withLock { $0.2 } }
}
