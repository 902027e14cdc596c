/// Renders ``MetricsSnapshot``s into the Prometheus text format as bytes, reusing from one
/// call to the next what depends only on the lists of sensors and alerts.
///
/// The daemon writes its file every few seconds, with a thousand sensors or more, and the
/// lists seldom change: sorting them, escaping ids and labels and spelling each series'
/// name and labels once per list leaves a render little more than copying bytes and
/// spelling numbers. Not thread-safe: one renderer per writer. The output is exactly
/// ``PrometheusExposition/render(_:)``'s.
public final class PrometheusRenderer {
    /// Spans of one flat text: each series' name and labels, up to the value.
    private struct Prefixes {
        var text: [UInt8] = []
        var spans: [Range<Int>] = []

        mutating func add(_ s: String) {
            let start = text.count
            text.append(contentsOf: s.utf8)
            spans.append(start..<text.count)
        }
    }

    /// What the sensor lists fix: the sorted order of the tried sensors (as positions in the
    /// groups laid end to end) and the text of every series before its value.
    private struct SensorCache {
        var lists: [[SensorInfo]] = []
        var attempted: [[Bool]] = []
        var order: [Int] = []
        var quantity: [Quantity] = []
        var up = Prefixes()
        var timestamp = Prefixes()
        var value = Prefixes()
    }

    /// What the alert table's rules, sensors and pairs fix.
    private struct AlertCache {
        var rules: [Rule] = []
        var sensors: [SensorInfo] = []
        var pairs: [Int] = []
        var order: [Int] = []
        var prefix = Prefixes()
    }

    private var sensors = SensorCache()
    private var alerts = AlertCache()
    /// The output, its memory kept from one render to the next.
    private let out = RenderBuffer()

    public init() {}

    /// The text of `snapshot`, ending in a newline, as UTF-8.
    public func render(_ snapshot: MetricsSnapshot) -> [UInt8] {
        withRendered(snapshot) { Array($0) }
    }

    /// Calls `body` with the text of `snapshot` (valid only inside `body`): no copy.
    public func withRendered<R>(_ snapshot: MetricsSnapshot, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        out.removeAll()
        Self.family(out, "sensorwatch_build_info", "gauge", "Always 1; the version label is sensorwatch's version.")
        out.append("sensorwatch_build_info{version=\"" + PrometheusExposition.escape(snapshot.version) + "\"} 1\n")
        Self.family(out, "sensorwatch_start_time_seconds", "gauge", "Unix time the sensorwatch daemon started.")
        out.append("sensorwatch_start_time_seconds ")
        Self.appendTimestamp(out, snapshot.startTime)
        renderSensors(snapshot.groups, into: out)
        renderAlerts(snapshot.alerts, into: out)
        renderEvents(snapshot.events, into: out)
        return try body(out.bytes)
    }

    // MARK: - Sensors

    private func renderSensors(_ groups: [MetricsSnapshot.SensorGroup], into out: RenderBuffer) {
        if groups.count != sensors.lists.count
            || !groups.indices.allSatisfy({ groups[$0].sensors == sensors.lists[$0] && groups[$0].attempted == sensors.attempted[$0] })
        {
            sensors = Self.sensorCache(groups)
        }
        let c = sensors
        guard !c.order.isEmpty else { return }
        // The groups laid end to end, so the loops below index plain arrays.
        var up: [Bool] = []
        var value: [Double] = []
        var time: [Double] = []
        for g in groups {
            up += g.up
            value += g.value
            time += g.lastReading
        }
        Self.family(out, "sensorwatch_sensor_up", "gauge", "1 if the latest read of the sensor succeeded, else 0.")
        c.up.text.withUnsafeBufferPointer { text in
            for (k, j) in c.order.enumerated() {
                out.append(UnsafeBufferPointer(rebasing: text[c.up.spans[k]]))
                out.append(up[j] ? UInt8(ascii: "1") : UInt8(ascii: "0"))
                out.append(UInt8(ascii: "\n"))
            }
        }
        if c.order.contains(where: { !time[$0].isNaN }) {
            Self.family(
                out, "sensorwatch_sensor_last_reading_timestamp_seconds", "gauge",
                "Unix time of the latest successful read of the sensor.")
            // A poll reads all its sensors at one time: spell each distinct time once.
            var lastTime = Double.nan
            var lastText = 0..<0
            c.timestamp.text.withUnsafeBufferPointer { text in
                for (k, j) in c.order.enumerated() where !time[j].isNaN {
                    out.append(UnsafeBufferPointer(rebasing: text[c.timestamp.spans[k]]))
                    if time[j] == lastTime {
                        out.appendCopy(of: lastText)
                    } else {
                        let start = out.count
                        Self.appendTimestamp(out, time[j])
                        lastTime = time[j]
                        lastText = start..<out.count
                    }
                }
            }
        }
        c.value.text.withUnsafeBufferPointer { text in
            for quantity in Quantity.allCases {
                var started = false
                for (k, j) in c.order.enumerated() where c.quantity[k] == quantity && !value[j].isNaN {
                    if !started {
                        let (name, help) = Self.valueFamily(quantity)
                        Self.family(out, name, "gauge", help)
                        started = true
                    }
                    out.append(UnsafeBufferPointer(rebasing: text[c.value.spans[k]]))
                    switch quantity {
                    case .temperature: Self.appendNumber(out, value[j])
                    // Divided, not multiplied by 0.01: 41.5 / 100 is 0.415, 41.5 * 0.01 is 0.41500000000000004.
                    case .humidity: Self.appendNumber(out, value[j] / 100)
                    case .pressure: Self.appendNumber(out, value[j] * 100)
                    }
                    out.append(UInt8(ascii: "\n"))
                }
            }
        }
    }

    private static func sensorCache(_ groups: [MetricsSnapshot.SensorGroup]) -> SensorCache {
        var c = SensorCache()
        c.lists = groups.map(\.sensors)
        c.attempted = groups.map(\.attempted)
        let infos = Array(groups.map(\.sensors).joined())
        let attempted = Array(groups.map(\.attempted).joined())
        c.order = infos.indices.filter { attempted[$0] }.sorted { infos[$0].id < infos[$1].id }
        guard !c.order.isEmpty else { return c }
        for j in c.order {
            let sensor = infos[j]
            let id = PrometheusExposition.escape(sensor.id.rawValue)
            let label = PrometheusExposition.escape(sensor.label)
            let q = sensor.quantity.rawValue
            c.quantity.append(sensor.quantity)
            c.up.add("sensorwatch_sensor_up{sensor=\"\(id)\",quantity=\"\(q)\"} ")
            c.timestamp.add("sensorwatch_sensor_last_reading_timestamp_seconds{sensor=\"\(id)\"} ")
            c.value.add("\(valueFamily(sensor.quantity).name){sensor=\"\(id)\",label=\"\(label)\"} ")
        }
        return c
    }

    /// Name and help of a quantity's value family, in the base unit.
    private static func valueFamily(_ q: Quantity) -> (name: String, help: String) {
        switch q {
        case .temperature:
            return ("sensorwatch_temperature_celsius", "Latest successful temperature reading in degrees Celsius.")
        case .humidity:
            return ("sensorwatch_humidity_ratio", "Latest successful relative humidity reading as a ratio (0.415 is 41.5 %RH).")
        case .pressure:
            return ("sensorwatch_pressure_pascals", "Latest successful pressure reading in pascals (hPa × 100).")
        }
    }

    // MARK: - Alerts and events

    private func renderAlerts(_ table: MetricsSnapshot.AlertTable, into out: RenderBuffer) {
        let entries = table.entries
        guard !entries.isEmpty else { return }
        let pairs = entries.count == alerts.pairs.count / 2 ? alerts.pairs : []
        if pairs.isEmpty || table.rules != alerts.rules || table.sensors != alerts.sensors
            || !entries.indices.allSatisfy({ entries[$0].rule == pairs[2 * $0] && entries[$0].sensor == pairs[2 * $0 + 1] })
        {
            alerts = Self.alertCache(table)
        }
        let c = alerts
        Self.family(
            out, "sensorwatch_alert_firing", "gauge",
            "1 while the alert of the rule for the sensor is firing, else 0 (pending counts as 0).")
        c.prefix.text.withUnsafeBufferPointer { text in
            for (k, i) in c.order.enumerated() {
                out.append(UnsafeBufferPointer(rebasing: text[c.prefix.spans[k]]))
                out.append(entries[i].firing ? UInt8(ascii: "1") : UInt8(ascii: "0"))
                out.append(UInt8(ascii: "\n"))
            }
        }
    }

    private static func alertCache(_ table: MetricsSnapshot.AlertTable) -> AlertCache {
        var c = AlertCache()
        c.rules = table.rules
        c.sensors = table.sensors
        let entries = table.entries
        c.pairs = entries.flatMap { [$0.rule, $0.sensor] }
        func key(_ i: Int) -> (String, SensorID) { (table.rules[entries[i].rule].name, table.sensors[entries[i].sensor].id) }
        c.order = entries.indices.sorted { key($0) < key($1) }
        for i in c.order {
            let rule = table.rules[entries[i].rule]
            let sensor = table.sensors[entries[i].sensor].id.rawValue
            c.prefix.add(
                "sensorwatch_alert_firing{rule=\"\(PrometheusExposition.escape(rule.name))\",sensor=\"\(PrometheusExposition.escape(sensor))\",severity=\"\(rule.severity.rawValue)\"} "
            )
        }
        return c
    }

    private func renderEvents(_ list: [MetricsSnapshot.EventCount], into out: RenderBuffer) {
        guard !list.isEmpty else { return }
        Self.family(
            out, "sensorwatch_alert_events_total", "counter",
            "Alert events (firing, resolved, repeat) the rule has sent since the daemon started.")
        func rank(_ e: EventKind) -> Int { e == .firing ? 0 : e == .resolved ? 1 : 2 }
        for e in list.sorted(by: { ($0.rule, rank($0.event)) < ($1.rule, rank($1.event)) }) {
            out.append(
                "sensorwatch_alert_events_total{rule=\"\(PrometheusExposition.escape(e.rule))\",event=\"\(e.event.rawValue)\"} \(e.count)\n")
        }
    }

    // MARK: - Text

    private static func family(_ out: RenderBuffer, _ name: String, _ type: String, _ help: String) {
        out.append("# HELP \(name) \(help)\n# TYPE \(name) \(type)\n")
    }

    /// A Unix time to the millisecond, and a newline.
    private static func appendTimestamp(_ out: RenderBuffer, _ t: Double) {
        let ms = (t * 1000).rounded()
        if t.isFinite, abs(ms) < 9e15 {
            out.appendFixed(Int64(ms), decimals: 3)
        } else {
            out.append(PrometheusExposition.number(t))
        }
        out.append(UInt8(ascii: "\n"))
    }

    /// A sample value, spelled exactly: in fixed point when six decimals hold it (every
    /// kernel reading does), else as Swift's shortest round-trip form.
    static func appendNumber(_ out: RenderBuffer, _ v: Double) {
        if v == v.rounded(), abs(v) < 9e15 {
            out.appendFixed(Int64(v), decimals: 0)
            return
        }
        if v.isFinite, abs(v) < 9e9 {
            let m = (v * 1e6).rounded()
            if m / 1e6 == v {
                out.appendFixed(Int64(m), decimals: 6)
                return
            }
        }
        out.append(PrometheusExposition.number(v))
    }
}
