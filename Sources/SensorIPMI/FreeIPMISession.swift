import FreeIPMILoader
import SensorCore

/// A session through libfreeipmi (``FreeIPMITransport``): the C loader's handle, with the
/// SDR it read kept on the C side.
final class FreeIPMISession: IPMISession {
    private var handle: OpaquePointer?

    init(_ handle: OpaquePointer) { self.handle = handle }

    deinit { close() }

    func records(cachePath: String) throws(IPMIFailure) -> [IPMIRecord] {
        guard let handle else { throw IPMIFailure(.other, "session closed") }
        var failure: Int32 = 0
        var error = [CChar](repeating: 0, count: 320)
        let n = sw_ipmi_load_sdr(handle, cachePath, &failure, &error, error.count)
        guard n >= 0 else { throw Self.failure(failure, error) }
        var out: [IPMIRecord] = []
        for i in 0..<UInt32(n) {
            var r = sw_ipmi_record()
            guard sw_ipmi_record_at(handle, i, &r) == 0 else { continue }
            let name = withUnsafeBytes(of: r.name) { Self.text(Array($0.prefix { $0 != 0 })) }
            let t = withUnsafeBytes(of: r.thresholds) { Array($0.bindMemory(to: Double.self)) }
            var thresholds: [String: Double] = [:]
            for (bit, key) in ["lnc", "lc", "lnr", "unc", "uc", "unr"].enumerated()
            where r.threshold_mask & (1 << bit) != 0 {
                thresholds[key] = t[bit]
            }
            out.append(
                IPMIRecord(
                    recordID: Int(r.record_id), name: name, sensorType: r.sensor_type,
                    eventReadingType: r.event_reading_type,
                    baseUnit: r.base_unit, isThreshold: r.is_threshold != 0, thresholds: thresholds,
                    hysteresis: (r.hysteresis_positive, r.hysteresis_negative)))
        }
        return out
    }

    func read(_ index: Int) throws(IPMIFailure) -> IPMIReading {
        guard let handle else { throw IPMIFailure(.other, "session closed") }
        var value = 0.0
        var bits: UInt16 = 0
        var failure: Int32 = 0
        var error = [CChar](repeating: 0, count: 320)
        switch sw_ipmi_read(handle, UInt32(index), &value, &bits, &failure, &error, error.count) {
        case 1: return .value(value)
        case 0: return .states(bits)
        case -1: throw Self.failure(failure, error)
        default: return .unavailable(Self.text(error))
        }
    }

    func meaning(eventReadingType: UInt8, sensorType: UInt8, offset: Int) -> IPMIStateMeaning {
        guard let handle else { return IPMIStateMeaning(severity: .unknown, text: "state \(offset)") }
        var text = [CChar](repeating: 0, count: 160)
        let state = sw_ipmi_state(handle, eventReadingType, sensorType, UInt32(offset), &text, text.count)
        return IPMIStateMeaning(
            severity: IPMIStateMeaning.Severity(rawValue: Int(state)) ?? .unknown, text: Self.text(text))
    }

    func eventLog(from start: Int) throws(IPMIFailure) -> [IPMIEventLogEntry] {
        guard let handle else { throw IPMIFailure(.other, "session closed") }
        final class Collected { var entries: [IPMIEventLogEntry] = [] }
        let collected = Collected()
        var failure: Int32 = 0
        var error = [CChar](repeating: 0, count: 320)
        let n = withExtendedLifetime(collected) {
            sw_ipmi_sel(
                handle, UInt16(clamping: start),
                { context, entry in
                    guard let context, let e = entry?.pointee else { return }
                    let box = Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue()
                    let sensor = withUnsafeBytes(of: e.sensor) { FreeIPMISession.text(Array($0.prefix { $0 != 0 })) }
                    let event = withUnsafeBytes(of: e.event) { FreeIPMISession.text(Array($0.prefix { $0 != 0 })) }
                    box.entries.append(
                        IPMIEventLogEntry(
                            recordID: Int(e.record_id), timestamp: e.timestamp, sensor: sensor, event: event,
                            severity: IPMIStateMeaning.Severity(rawValue: Int(e.state)) ?? .unknown))
                }, Unmanaged.passUnretained(collected).toOpaque(), &failure, &error, error.count)
        }
        guard n >= 0 else { throw Self.failure(failure, error) }
        return collected.entries
    }

    func close() {
        guard let handle else { return }
        self.handle = nil
        sw_ipmi_close(handle)
    }

    /// The failure the C loader reported.
    static func failure(_ code: Int32, _ error: [CChar]) -> IPMIFailure {
        let detail = text(error)
        switch UInt32(bitPattern: code) {
        case SW_IPMI_NO_LIBRARY.rawValue: return IPMIFailure(.noLibrary, detail)
        case SW_IPMI_TIMEOUT.rawValue: return IPMIFailure(.timeout, detail)
        case SW_IPMI_PASSWORD.rawValue: return IPMIFailure(.password, detail)
        case SW_IPMI_USER.rawValue: return IPMIFailure(.user, detail)
        case SW_IPMI_PRIVILEGE.rawValue: return IPMIFailure(.privilege, detail)
        case SW_IPMI_HOST.rawValue: return IPMIFailure(.host, detail)
        case SW_IPMI_NO_DEVICE.rawValue: return IPMIFailure(.noDevice, detail)
        default: return IPMIFailure(.other, detail)
        }
    }

    /// A C string of the library as text (invalid UTF-8 repaired: a BMC's names are not trusted).
    static func text(_ chars: [CChar]) -> String {
        String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
