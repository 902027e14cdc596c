/// Where alert events and sensor faults go: the journal, a stream, memory in tests.
///
/// Contract for implementations: `emit` delivers or reports, it never drops silently (a
/// sink that cannot deliver falls back, or counts and reports the loss). Calls come in
/// event order from one task at a time; they must not block for long, since the rule loop
/// waits for them.
public protocol AlertSink: Sendable {
    /// Delivers one alert event.
    func emit(_ event: AlertEvent)

    /// Delivers a change of a sensor's read health (it started or stopped failing).
    func emit(_ fault: SensorFault)

    /// Delivers a sensor that appeared or went while running (SPEC §20).
    func emit(_ presence: SensorPresence)

    /// Delivers the changes of read health one look found, in time order. A sink may tell
    /// several as one (a BMC that stopped answering: one entry, not one per sensor, SPEC §23).
    func emit(_ faults: [SensorFault])
}

extension AlertSink {
    /// Each change on its own.
    public func emit(_ faults: [SensorFault]) {
        for fault in faults { emit(fault) }
    }
}
