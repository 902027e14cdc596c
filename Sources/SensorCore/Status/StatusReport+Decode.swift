import SensorRuntime
extension StatusReport {
    /// Why a status file cannot be read as a report.
    public struct DecodeError: Error, Hashable, Sendable, CustomStringConvertible {
        /// What is wrong with the file, in words for the person running `status`.
        public var message: String
        /// An error with the given message.
        public init(message: String) { self.message = message }
        /// The message, as `status` prints it.
        public var description: String { message }
    }

    /// The bytes of the status file at `path` (a regular file only).
    ///
    /// - Throws: ``DecodeError`` with why it cannot be read, as `strerror` words it.
    public static func bytes(of path: String) throws(DecodeError) -> [UInt8] {
        do {
            return try TextFile.bytes(of: path)
        } catch {
            throw DecodeError(message: error.message)
        }
    }

    /// Reads the text of a status file; fields a newer daemon added are ignored, so an
    /// older `status` keeps working.
    ///
    /// - Throws: ``DecodeError`` naming the first problem (`not JSON: …`, or the key).
    public static func decode(_ bytes: [UInt8], path: String) throws(DecodeError) -> StatusReport {
        let diagnostics = ConfigDiagnostics(file: path)
        guard let root = JSON5Document.load(contents: bytes, diagnostics: diagnostics) else {
            throw DecodeError(message: diagnostics.errors.first.map { "\($0.location): \($0.message)" } ?? "unreadable")
        }
        func members(_ v: JSONValue?) -> JSONObject? {
            if case .object(let m)? = v { return m }
            return nil
        }
        func string(_ m: JSONObject, _ key: String) -> String? {
            if case .string(let s)? = m[key] { return s }
            return nil
        }
        func number(_ m: JSONObject, _ key: String) -> Double? {
            switch m[key] {
            case .integer(let i)?: return Double(i)
            case .number(let d)?: return d
            default: return nil
            }
        }
        func time(_ m: JSONObject, _ key: String) -> Double? { string(m, key).flatMap(RFC3339.parse) }
        func list(_ m: JSONObject, _ key: String) -> [JSONObject]? {
            guard case .array(let a)? = m[key] else { return nil }
            let objects = a.compactMap(members)
            return objects.count == a.count ? objects : nil
        }

        guard let top = members(root.value) else { throw DecodeError(message: "expected an object") }
        let version = string(top, "version") ?? ""
        let pid = Int(number(top, "pid") ?? 0)
        guard let started = time(top, "started") else {
            throw DecodeError(message: "started: expected an RFC 3339 time")
        }
        guard let updated = time(top, "updated") else {
            throw DecodeError(message: "updated: expected an RFC 3339 time")
        }
        guard let sensorObjects = list(top, "sensors") else {
            throw DecodeError(message: "sensors: expected an array of objects")
        }
        guard let alertObjects = list(top, "alerts") else {
            throw DecodeError(message: "alerts: expected an array of objects")
        }
        var sensors: [StatusSensor] = []
        for (i, s) in sensorObjects.enumerated() {
            guard let id = string(s, "id"), let quantity = string(s, "quantity") else {
                throw DecodeError(message: "sensors[\(i)]: needs id and quantity")
            }
            var limits: StatusLimits?
            if let l = members(s["limits"]) {
                var values: [String: Double] = [:]
                for m in l.members { values[m.key] = number(l, m.key) }
                limits = StatusLimits(values: values)
            }
            var ok = false
            if case .bool(let b)? = s["ok"] { ok = b }
            var asleep = false
            if case .bool(let b)? = s["asleep"] { asleep = b }
            var state: [String]?
            if case .array(let words)? = s["state"] {
                state = words.compactMap { if case .string(let w) = $0 { w } else { nil } }
            }
            sensors.append(
                StatusSensor(
                    id: id, label: string(s, "label") ?? "", quantity: quantity, unit: string(s, "unit") ?? "",
                    value: number(s, "value"), time: time(s, "time"), ok: ok, error: string(s, "error"), limits: limits,
                    asleep: asleep, state: state))
        }
        var alerts: [StatusAlert] = []
        for (i, a) in alertObjects.enumerated() {
            guard let rule = string(a, "rule"), let sensor = string(a, "sensor"),
                let severity = string(a, "severity").flatMap(Severity.init(rawValue:)),
                let state = string(a, "state").flatMap(StatusAlert.State.init(rawValue:))
            else { throw DecodeError(message: "alerts[\(i)]: needs rule, sensor, severity and state") }
            alerts.append(
                StatusAlert(
                    rule: rule, sensor: sensor, severity: severity, state: state, since: time(a, "since") ?? updated,
                    value: number(a, "value"), threshold: number(a, "threshold") ?? .nan,
                    condition: string(a, "condition").flatMap(ConditionKind.init(rawValue:)), limit: string(a, "limit"),
                    within: number(a, "within"), unit: string(a, "unit") ?? ""))
        }
        return StatusReport(
            version: version, pid: pid, started: started, updated: updated, sensors: sensors, alerts: alerts)
    }
}
