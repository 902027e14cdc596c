import SensorRuntime
import SensorCore

/// Logs a sensor that starts failing, once, and once when it reads again (SPEC §4), by
/// observing ``SensorData/faulty``. A sensor that fails and recovers between two looks
/// (within one poll's cycles) is not reported; a sensor that vanished is not "recovered".
@DaemonActor
final class SensorHealthReporter: Service {
    private let data: SensorData
    private let sink: any AlertSink
    private var reported: [SensorID: SensorFault] = [:]

    init(data: SensorData, sink: any AlertSink) {
        self.data = data
        self.sink = sink
    }

    func run() async {
        while !Task.isCancelled {
            report()
            await nextChange(of: { _ = data.faulty })
        }
        report()
    }

    private func report() {
        let now = data.faulty
        guard now.count != reported.count || now.keys.contains(where: { reported[$0] == nil }) else { return }
        var changes: [SensorFault] = []
        for (id, fault) in now where reported[id] == nil { changes.append(fault) }
        for (id, fault) in reported where now[id] == nil {
            // Gone from its source's list: dropped, not recovered.
            guard let sensor = data.sensor(id) else { continue }
            let time = data.latest(of: id)?.time ?? fault.time
            changes.append(SensorFault(time: time, sensor: sensor, reason: nil))
        }
        reported = now
        guard !changes.isEmpty else { return }
        sink.emit(changes.sorted(by: { ($0.time, $0.sensor.id) < ($1.time, $1.sensor.id) }))
    }
}
