import SensorConfig
import SensorCore
import SensorIPMI

/// Passes every event on, as a BMC's need it (SPEC §23): an alarm of a discrete sensor gets
/// the words of the states that raised it (`hw-alarm firing: ipmi:bmc/PSU1_Status (PSU1
/// Status) in hardware alarm (alarm): Power Supply Failure detected`), and the sensors of a
/// BMC that fail (or read again) for one reason at one look are one entry naming the BMC
/// (`sensor ipmi:bmc-r1-07 (bmc-r1-07: 6 sensors) read failed: bmc-r1-07: session timeout
/// after 5 s`), not one per sensor.
struct BMCAlertSink: AlertSink {
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

    func emit(_ faults: [SensorFault]) {
        sink.emit(Self.grouped(faults))
    }

    /// `faults` with those of one BMC's sensors that share a reason (or recovered together)
    /// as one, in the place of the first of them.
    static func grouped(_ faults: [SensorFault]) -> [SensorFault] {
        struct Key: Hashable {
            var bmc: String
            var reason: String?
        }
        func key(_ f: SensorFault) -> Key? {
            let id = f.sensor.id.rawValue
            let prefix = SourceKind.ipmi.idPrefix + ":"
            guard id.hasPrefix(prefix), let slash = id.firstIndex(of: "/") else { return nil }
            return Key(bmc: String(id[id.index(id.startIndex, offsetBy: prefix.count)..<slash]), reason: f.reason)
        }
        var counts: [Key: Int] = [:]
        for f in faults { if let k = key(f) { counts[k, default: 0] += 1 } }
        var told: Set<Key> = []
        var out: [SensorFault] = []
        for f in faults {
            guard let k = key(f), let n = counts[k], n > 1 else {
                out.append(f)
                continue
            }
            guard told.insert(k).inserted else { continue }
            let bmc = SensorInfo(
                id: SensorID(source: SourceKind.ipmi.idPrefix, name: k.bmc), label: "\(k.bmc): \(n) sensors",
                quantity: .state)
            out.append(SensorFault(time: f.time, sensor: bmc, reason: f.reason))
        }
        return out
    }
}
