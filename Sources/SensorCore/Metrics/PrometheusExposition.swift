/// Renders a ``MetricsSnapshot`` in the Prometheus text exposition format (0.0.4), as
/// node_exporter's textfile collector reads it (SPEC §12).
///
/// node_exporter drops a whole file for one line it refuses, silently but for
/// `node_textfile_scrape_error`, so the output keeps to what it accepts: `# HELP` and
/// `# TYPE` before every family, no sample timestamps, label values escaped (`\\`, `\"`,
/// `\n`), base units (°C, ratio, Pa, seconds), and no family without samples. Families come
/// in a fixed order and series sorted by their labels, so equal snapshots give equal bytes.
public enum PrometheusExposition {
    /// The text of `snapshot`, ending in a newline.
    public static func render(_ snapshot: MetricsSnapshot) -> String {
        var out = Output()
        out.reserve(snapshot.sensors.count * 400 + snapshot.alerts.count * 120 + 1024)

        out.family("sensorwatch_build_info", .gauge, "Always 1; the version label is sensorwatch's version.")
        out.sample("sensorwatch_build_info", [("version", snapshot.version)], 1)
        out.family("sensorwatch_start_time_seconds", .gauge, "Unix time the sensorwatch daemon started.")
        out.sample("sensorwatch_start_time_seconds", [], snapshot.startTime)

        let sensors = snapshot.sensors.sorted { $0.info.id < $1.info.id }
        // Each sensor's escaped id is used by several families; escape it once.
        let ids = sensors.map { escape($0.info.id.rawValue) }
        let labels = sensors.map { escape($0.info.label) }

        if !sensors.isEmpty {
            out.family(
                "sensorwatch_sensor_info", .gauge,
                "Always 1; the labels describe the sensor (label, quantity, unit of sensorwatch's own readings).")
            for (i, s) in sensors.enumerated() {
                out.line(
                    "sensorwatch_sensor_info{sensor=\"\(ids[i])\",label=\"\(labels[i])\",quantity=\"\(s.info.quantity.rawValue)\",unit=\"\(escape(s.info.unit))\"} 1"
                )
            }
            out.family("sensorwatch_sensor_up", .gauge, "1 if the latest read of the sensor succeeded, else 0.")
            for (i, s) in sensors.enumerated() {
                out.line("sensorwatch_sensor_up{sensor=\"\(ids[i])\",quantity=\"\(s.info.quantity.rawValue)\"} \(s.up ? 1 : 0)")
            }
        }
        if sensors.contains(where: { $0.lastReading != nil }) {
            out.family(
                "sensorwatch_sensor_last_reading_timestamp_seconds", .gauge,
                "Unix time of the latest successful read of the sensor.")
            for (i, s) in sensors.enumerated() {
                guard let t = s.lastReading else { continue }
                out.line("sensorwatch_sensor_last_reading_timestamp_seconds{sensor=\"\(ids[i])\"} \(number(t))")
            }
        }
        for quantity in Quantity.allCases {
            let (name, help, scale) = valueFamily(quantity)
            var started = false
            for (i, s) in sensors.enumerated() where s.info.quantity == quantity {
                guard let v = s.value else { continue }
                if !started {
                    out.family(name, .gauge, help)
                    started = true
                }
                out.line("\(name){sensor=\"\(ids[i])\",label=\"\(labels[i])\"} \(number(scale(v)))")
            }
        }

        if !snapshot.alerts.isEmpty {
            out.family(
                "sensorwatch_alert_firing", .gauge,
                "1 while the alert of the rule for the sensor is firing, else 0 (pending counts as 0).")
            let alerts = snapshot.alerts.sorted { ($0.rule, $0.sensor) < ($1.rule, $1.sensor) }
            for a in alerts {
                out.line(
                    "sensorwatch_alert_firing{rule=\"\(escape(a.rule))\",sensor=\"\(escape(a.sensor.rawValue))\",severity=\"\(a.severity.rawValue)\"} \(a.firing ? 1 : 0)"
                )
            }
        }
        if !snapshot.events.isEmpty {
            out.family(
                "sensorwatch_alert_events_total", .counter,
                "Alert events (firing, resolved, repeat) the rule has sent since the daemon started.")
            let order: [EventKind: Int] = [.firing: 0, .resolved: 1, .repeat: 2]
            let events = snapshot.events.sorted { ($0.rule, order[$0.event]!) < ($1.rule, order[$1.event]!) }
            for e in events {
                out.line("sensorwatch_alert_events_total{rule=\"\(escape(e.rule))\",event=\"\(e.event.rawValue)\"} \(e.count)")
            }
        }
        return out.text
    }

    /// Name, help and conversion to the base unit of a quantity's value family.
    private static func valueFamily(_ q: Quantity) -> (String, String, (Double) -> Double) {
        switch q {
        case .temperature:
            return ("sensorwatch_temperature_celsius", "Latest successful temperature reading in degrees Celsius.", { $0 })
        case .humidity:
            // Divided, not multiplied by 0.01: 41.5 / 100 is 0.415, 41.5 * 0.01 is 0.41500000000000004.
            return ("sensorwatch_humidity_ratio", "Latest successful relative humidity reading as a ratio (0.415 is 41.5 %RH).", { $0 / 100 })
        case .pressure:
            return ("sensorwatch_pressure_pascals", "Latest successful pressure reading in pascals (hPa × 100).", { $0 * 100 })
        }
    }

    /// A label value escaped as the format requires: backslash, double quote, line feed.
    public static func escape(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == 0x5C || $0 == 0x22 || $0 == 0x0A }) else { return value }
        var out = ""
        out.reserveCapacity(value.utf8.count + 8)
        for c in value.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// A sample value as the format spells it (`+Inf`, not Swift's `inf`).
    static func number(_ v: Double) -> String {
        if v.isNaN { return "NaN" }
        if v.isInfinite { return v > 0 ? "+Inf" : "-Inf" }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return v.description
    }

    private enum Kind: String {
        case gauge, counter
    }

    /// The text being built.
    private struct Output {
        var text = ""

        mutating func reserve(_ n: Int) { text.reserveCapacity(n) }

        mutating func family(_ name: String, _ kind: Kind, _ help: String) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(kind.rawValue)\n"
        }

        mutating func sample(_ name: String, _ labels: [(String, String)], _ value: Double) {
            text += name
            if !labels.isEmpty {
                text += "{" + labels.map { "\($0.0)=\"\(escape($0.1))\"" }.joined(separator: ",") + "}"
            }
            text += " " + number(value) + "\n"
        }

        mutating func line(_ s: String) {
            text += s
            text += "\n"
        }
    }
}
