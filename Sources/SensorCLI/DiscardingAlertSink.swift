import SensorCore

/// An alert sink that keeps nothing: `top` standalone shows the alerts of its own rules on the
/// screen (through the stream) and writes none to the journal, which belongs to the daemon.
struct DiscardingAlertSink: AlertSink {
    func emit(_ event: AlertEvent) {}
    func emit(_ fault: SensorFault) {}
    func emit(_ presence: SensorPresence) {}
}
