public import SensorNotify

extension JournalAlertRecord {
    /// The event `notify` delivers for this entry.
    public var notifyEvent: NotifyEvent {
        var event = NotifyEvent(
            realtimeMicroseconds: realtimeMicroseconds, kind: kind, rule: rule, severity: severity, sensor: sensor,
            label: label, quantity: quantity, value: value, unit: unit, threshold: threshold, host: host,
            message: message, predicted: predicted, limit: limit, annotations: annotations)
        event.sensorGone = sensorGone
        return event
    }
}
