public import SensorConfig
import SensorCore
extension NotifyFilter {
    /// Whether `event` passes every filter. An event without a known severity passes only
    /// when severities are not filtered (a filter on severity cannot vouch for it).
    public func matches(_ event: NotifyEvent) -> Bool {
        if let severities {
            guard let severity = event.severity, severities.contains(severity) else { return false }
        }
        if let rule, !rule.matches(event.rule) { return false }
        if let sensor, !sensor.matches(event.sensor) { return false }
        if let host, !host.matches(event.host) { return false }
        return true
    }
}
