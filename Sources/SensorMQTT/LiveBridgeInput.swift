import SensorCore
import SensorLive
import SensorRuntime

/// The daemon's stream (``LiveMessage``'s sensors and alerts) as the bridge takes it.
enum LiveBridgeInput {
    /// The sensors the bridge publishes: those of a quantity it knows (a discrete BMC sensor,
    /// quantity `state`, has no value to publish). A sensor that failed, or sleeps, has no
    /// value: nothing is published for it, and Home Assistant lets it expire.
    static func sensors(_ live: [LiveSensor]) -> [BridgeSensor] {
        live.compactMap { s in
            guard let quantity = Quantity(rawValue: s.quantity) else { return nil }
            return BridgeSensor(
                info: SensorInfo(id: SensorID(s.id), label: s.label, quantity: quantity),
                value: s.ok && !s.asleep ? s.value : nil)
        }
    }

    /// An alert, with the words a person reads in Home Assistant's attributes.
    static func alert(_ a: LiveAlert, label: String?, unit: String?) -> BridgeAlert {
        let firing = a.state == .firing
        let name = label.flatMap { $0.isEmpty ? nil : $0 } ?? a.sensor
        let reading = a.value.map { " at " + NumberText.number($0) + (unit.map { " " + $0 } ?? "") } ?? ""
        let limit = a.threshold.map { " (threshold " + NumberText.number($0) + ")" } ?? ""
        let words: String
        switch a.state {
        case .firing: words = "\(a.rule) fires for \(name)\(reading)\(limit)"
        case .pending: words = "\(a.rule) is pending for \(name)\(reading)\(limit)"
        case .ok: words = "\(a.rule) resolved for \(name)\(reading)"
        }
        return BridgeAlert(
            rule: a.rule, sensor: a.sensor, severity: a.severity, firing: firing, since: RFC3339.format(a.since),
            value: a.value, threshold: a.threshold, message: words)
    }
}
