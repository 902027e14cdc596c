import SensorCore
import SensorIPMI

/// Passes every event on, giving an alarm of a BMC's discrete sensor the words of the
/// states that raised it (SPEC §23: `hw-alarm firing: ipmi:bmc/PSU1_Status (PSU1 Status) in
/// hardware alarm (alarm): Power Supply Failure detected`).
struct StateWordsAlertSink: AlertSink {
    let sink: any AlertSink
    let board: IPMIStateBoard

    func emit(_ event: AlertEvent) {
        guard event.condition == .alarm, event.kind != .resolved, event.sensor.quantity == .state,
            let words = board.alarmWords(of: event.sensor.id)
        else { return sink.emit(event) }
        var told = event
        told.detail = words
        sink.emit(told)
    }

    func emit(_ fault: SensorFault) { sink.emit(fault) }

    func emit(_ presence: SensorPresence) { sink.emit(presence) }
}
