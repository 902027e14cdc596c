import SensorRuntime
import SensorCore

/// Renders ``MetricsSnapshot``s into the Prometheus text format as bytes, reusing from one
/// call to the next everything but the values that changed.
///
/// The daemon writes its file every few seconds, with a thousand sensors or more, and the
/// lists seldom change. So the renderer keeps a *layout* — the file's text with every
/// sample value left out (a template), where each value goes, and how it is spelled —
/// built once per list of sensors and alerts, and the text it rendered last. A render then
/// only spells the values that differ from last time and, when a value keeps its length
/// (nearly always: a `1` stays one byte, a timestamp thirteen), overwrites it where it
/// stands; only when a length changes is the text laid out again from the template. Copying
/// the ~350 KB of names and labels on every write, cold in the cache a second later, cost
/// as much as all of the rest together.
///
/// Not thread-safe: one renderer per writer. The output is exactly
/// ``PrometheusExposition/render(_:)``'s.
public final class PrometheusRenderer {
    /// How a field's value (kept as 64 bits) is spelled.
    private enum Kind: UInt8 {
        /// A `Double`'s bits, as a Unix time to the millisecond.
        case timestamp
        /// A `Double`'s bits, as ``PrometheusRenderer/appendNumber(_:_:)`` spells it.
        case number
        /// 0 or 1.
        case bit
        /// A counter.
        case count
    }

    /// What the sensor lists, alert table and event list fix; rebuilt when one changes.
    private struct Layout {
        // The keys: a layout fits a snapshot whose lists equal these.
        var version = ""
        var lists: [[SensorInfo]] = []
        var attempted: [[Bool]] = []
        var asleep: [Set<Int>] = []
        var alertRules: [Rule] = []
        var alertSensors: [SensorInfo] = []
        var alertPairs: [Int] = []
        var eventKeys: [(String, EventKind)] = []

        /// The tried sensors, sorted by id, as positions in the groups laid end to end.
        var order: [Int] = []
        /// For each position in `order`: whether the sensor has a last reading and a value
        /// line (a change of either is a change of layout).
        var timed: [Bool] = []
        var valued: [Bool] = []
        /// The positions in `order` of the value lines, in file order (grouped by quantity).
        var valueOrder: [Int] = []
        var valueQuantity: [Quantity] = []
        /// Indices into the alert table's entries and the event list, in file order.
        var alertOrder: [Int] = []
        var eventOrder: [Int] = []

        /// The file without its values; field `f` goes at `template[at[f]]`.
        var template: [UInt8] = []
        var at: [Int] = []
        var kinds: [Kind] = []

        mutating func text(_ s: String) { template.append(contentsOf: s.utf8) }

        mutating func field(_ kind: Kind) {
            at.append(template.count)
            kinds.append(kind)
        }

        mutating func family(_ name: String, _ type: String, _ help: String) {
            text("# HELP \(name) \(help)\n# TYPE \(name) \(type)\n")
        }

        /// Whether the snapshot's lists (not its values) are the ones this layout is for.
        /// Equal arrays that share storage compare in O(1), and the keeper's lists do.
        func fits(_ s: MetricsSnapshot) -> Bool {
            guard s.version == version, s.groups.count == lists.count,
                s.alerts.rules == alertRules, s.alerts.sensors == alertSensors,
                s.alerts.entries.count * 2 == alertPairs.count, s.events.count == eventKeys.count
            else { return false }
            for g in s.groups.indices
            where s.groups[g].sensors != lists[g] || s.groups[g].attempted != attempted[g]
                || s.groups[g].asleep != asleep[g]
            {
                return false
            }
            for (k, e) in s.alerts.entries.enumerated()
            where e.rule != alertPairs[2 * k] || e.sensor != alertPairs[2 * k + 1] {
                return false
            }
            for (k, e) in s.events.enumerated() where e.event != eventKeys[k].1 || e.rule != eventKeys[k].0 {
                return false
            }
            return true
        }
    }

    private var layout = Layout()
    /// Whether `out` holds the text of `layout` with the values `last`.
    private var rendered = false
    /// The values of the last render and of this one, by field.
    private var last: [UInt64] = []
    private var next: [UInt64] = []
    /// Where each field's text stands in `out`, and its length.
    private var start: [Int32] = []
    private var length: [UInt8] = []
    /// The groups' arrays laid end to end, refilled at each render (memory kept).
    private var up: [Bool] = []
    private var value: [Double] = []
    private var time: [Double] = []
    /// The output, its memory kept from one render to the next.
    private let out = RenderBuffer()
    /// One value spelled before it is put in place.
    private let scratch = RenderBuffer(capacity: 64)

    /// A renderer with no layout yet: the first render builds it.
    public init() {}

    /// The text of `snapshot`, ending in a newline, as UTF-8.
    public func render(_ snapshot: MetricsSnapshot) -> [UInt8] {
        withRendered(snapshot) { Array($0) }
    }

    /// Calls `body` with the text of `snapshot` (valid only inside `body`): no copy.
    public func withRendered<R>(
        _ snapshot: MetricsSnapshot, _ body: (UnsafeBufferPointer<UInt8>) throws -> R
    ) rethrows -> R {
        gather(snapshot.groups)
        if !layout.fits(snapshot) || !collect(snapshot) {
            layout = Self.layout(snapshot, value: value, time: time)
            rendered = false
            let fits = collect(snapshot)
            assert(fits, "a fresh layout fits its snapshot")
        }
        if !rendered || !patch() { renderAll() }
        swap(&last, &next)
        rendered = true
        return try body(out.bytes)
    }

    // MARK: - Values

    private func gather(_ groups: [MetricsSnapshot.SensorGroup]) {
        up.removeAll(keepingCapacity: true)
        value.removeAll(keepingCapacity: true)
        time.removeAll(keepingCapacity: true)
        for g in groups {
            up += g.up
            value += g.value
            time += g.lastReading
        }
    }

    /// Fills `next` with the snapshot's values in field order; false if a sensor gained or
    /// lost its reading (the layout no longer fits).
    private func collect(_ s: MetricsSnapshot) -> Bool {
        let l = layout
        next.removeAll(keepingCapacity: true)
        next.reserveCapacity(l.kinds.count)
        next.append(s.startTime.bitPattern)
        for j in l.order { next.append(up[j] ? 1 : 0) }
        for (p, j) in l.order.enumerated() {
            let t = time[j]
            guard t.isNaN != l.timed[p], value[j].isNaN != l.valued[p] else { return false }
            if !t.isNaN { next.append(t.bitPattern) }
        }
        for (k, p) in l.valueOrder.enumerated() {
            let v = value[l.order[p]]
            switch l.valueQuantity[k] {
            case .temperature: next.append(v.bitPattern)
            // Divided, not multiplied by 0.01: 41.5 / 100 is 0.415, 41.5 * 0.01 is 0.41500000000000004.
            case .humidity: next.append((v / 100).bitPattern)
            case .pressure: next.append((v * 100).bitPattern)
            case .fan, .voltage, .power, .current: next.append(v.bitPattern)
            case .state: break  // never laid out (``valueFamily(_:)``)
            }
        }
        let entries = s.alerts.entries
        for i in l.alertOrder { next.append(entries[i].firing ? 1 : 0) }
        for i in l.eventOrder { next.append(s.events[i].count) }
        return true
    }

    /// Overwrites the values that changed where they stand in `out`; false if one changed
    /// its length (then nothing is promised of `out`).
    private func patch() -> Bool {
        var spelled: UInt64 = 0
        var spelledKind = Kind.bit
        var hasSpelled = false
        let n = next.count
        return next.withUnsafeBufferPointer { next in
            last.withUnsafeBufferPointer { last in
                for f in 0..<n where next[f] != last[f] {
                    let kind = layout.kinds[f]
                    // A poll reads all its sensors at one time: spell each distinct time once.
                    if !hasSpelled || spelled != next[f] || spelledKind != kind {
                        scratch.removeAll()
                        Self.spell(kind, next[f], into: scratch)
                        (spelled, spelledKind, hasSpelled) = (next[f], kind, true)
                    }
                    guard scratch.count == Int(length[f]) else { return false }
                    out.overwrite(at: Int(start[f]), with: scratch.bytes)
                }
                return true
            }
        }
    }

    /// Lays the text out afresh from the template.
    private func renderAll() {
        let l = layout
        out.removeAll()
        start.removeAll(keepingCapacity: true)
        length.removeAll(keepingCapacity: true)
        var spelled: UInt64 = 0
        var spelledKind = Kind.bit
        var spelledText = 0..<0
        l.template.withUnsafeBufferPointer { template in
            var from = 0
            for f in l.at.indices {
                out.append(UnsafeBufferPointer(rebasing: template[from..<l.at[f]]))
                from = l.at[f]
                let begin = out.count
                if !spelledText.isEmpty, spelled == next[f], spelledKind == l.kinds[f] {
                    out.appendCopy(of: spelledText)
                } else {
                    Self.spell(l.kinds[f], next[f], into: out)
                    (spelled, spelledKind, spelledText) = (next[f], l.kinds[f], begin..<out.count)
                }
                start.append(Int32(begin))
                length.append(UInt8(out.count - begin))
            }
            out.append(UnsafeBufferPointer(rebasing: template[from...]))
        }
    }

    private static func spell(_ kind: Kind, _ bits: UInt64, into out: RenderBuffer) {
        switch kind {
        case .timestamp: appendTimestamp(out, Double(bitPattern: bits))
        case .number: appendNumber(out, Double(bitPattern: bits))
        case .bit: out.append(bits == 0 ? UInt8(ascii: "0") : UInt8(ascii: "1"))
        case .count:
            if bits <= UInt64(Int64.max) { out.appendFixed(Int64(bits), decimals: 0) } else { out.append("\(bits)") }
        }
    }

    // MARK: - Layout

    private static func layout(_ s: MetricsSnapshot, value: [Double], time: [Double]) -> Layout {
        var l = Layout()
        l.version = s.version
        l.family("sensorwatch_build_info", "gauge", "Always 1; the version label is sensorwatch's version.")
        l.text("sensorwatch_build_info{version=\"" + PrometheusExposition.escape(s.version) + "\"} 1\n")
        l.family("sensorwatch_start_time_seconds", "gauge", "Unix time the sensorwatch daemon started.")
        l.text("sensorwatch_start_time_seconds ")
        l.field(.timestamp)
        l.text("\n")
        layoutSensors(s.groups, value: value, time: time, into: &l)
        layoutAlerts(s.alerts, into: &l)
        layoutEvents(s.events, into: &l)
        return l
    }

    private static func layoutSensors(
        _ groups: [MetricsSnapshot.SensorGroup], value: [Double], time: [Double], into l: inout Layout
    ) {
        l.lists = groups.map(\.sensors)
        l.attempted = groups.map(\.attempted)
        l.asleep = groups.map(\.asleep)
        let infos = Array(groups.map(\.sensors).joined())
        let attempted = Array(groups.map(\.attempted).joined())
        l.order = infos.indices.filter { attempted[$0] }.sorted { infos[$0].id < infos[$1].id }
        guard !l.order.isEmpty else { return }
        l.timed = l.order.map { !time[$0].isNaN }
        l.valued = l.order.map { !value[$0].isNaN }
        let ids = l.order.map { PrometheusExposition.escape(infos[$0].id.rawValue) }
        l.family("sensorwatch_sensor_up", "gauge", "1 if the latest read of the sensor succeeded, else 0.")
        for (p, j) in l.order.enumerated() {
            l.text("sensorwatch_sensor_up{sensor=\"\(ids[p])\",quantity=\"\(infos[j].quantity.rawValue)\"} ")
            l.field(.bit)
            l.text("\n")
        }
        // Only while some sensor sleeps (SPEC §20): a change of sleep is a change of layout, and
        // its lines are text of the layout, not fields.
        var sleeping: Set<Int> = []
        var first = 0
        for (g, group) in groups.enumerated() {
            for i in group.asleep { sleeping.insert(first + i) }
            first += l.lists[g].count
        }
        if !sleeping.isEmpty {
            l.family(
                "sensorwatch_sensor_asleep", "gauge",
                "1 while the sensor's device is runtime-suspended and so not read (its last value stands).")
            for (p, j) in l.order.enumerated() where sleeping.contains(j) {
                l.text("sensorwatch_sensor_asleep{sensor=\"\(ids[p])\"} 1\n")
            }
        }
        if l.timed.contains(true) {
            l.family(
                "sensorwatch_sensor_last_reading_timestamp_seconds", "gauge",
                "Unix time of the latest successful read of the sensor.")
            for p in l.order.indices where l.timed[p] {
                l.text("sensorwatch_sensor_last_reading_timestamp_seconds{sensor=\"\(ids[p])\"} ")
                l.field(.timestamp)
                l.text("\n")
            }
        }
        for quantity in Quantity.allCases {
            guard let (name, help) = valueFamily(quantity) else { continue }
            let positions = l.order.indices.filter { infos[l.order[$0]].quantity == quantity && l.valued[$0] }
            guard !positions.isEmpty else { continue }
            l.family(name, "gauge", help)
            for p in positions {
                let label = PrometheusExposition.escape(infos[l.order[p]].label)
                l.text("\(name){sensor=\"\(ids[p])\",label=\"\(label)\"} ")
                l.field(.number)
                l.text("\n")
                l.valueOrder.append(p)
                l.valueQuantity.append(quantity)
            }
        }
        layoutLimits(infos, order: l.order, ids: ids, into: &l)
    }

    /// The sensors' plausible limits (SPEC §12, §16): fixed at discovery, so they are text of
    /// the layout, not fields (a changed limit changes the sensor list and so the layout).
    private static func layoutLimits(_ infos: [SensorInfo], order: [Int], ids: [String], into l: inout Layout) {
        let spelled = RenderBuffer(capacity: 32)
        for quantity in Quantity.allCases {
            guard let (name, help) = limitFamily(quantity) else { continue }
            let positions = order.indices.filter {
                infos[order[$0]].quantity == quantity && !infos[order[$0]].limits.values.isEmpty
            }
            guard !positions.isEmpty else { continue }
            l.family(name, "gauge", help)
            for p in positions {
                let limits = infos[order[p]].limits.values
                for limit in SensorLimits.ordered(limits.keys) {
                    spelled.removeAll()
                    appendNumber(spelled, limits[limit]!)
                    l.text("\(name){sensor=\"\(ids[p])\",limit=\"\(PrometheusExposition.escape(limit))\"} ")
                    l.template.append(contentsOf: spelled.bytes)
                    l.text("\n")
                }
            }
        }
    }

    /// Name and help of a quantity's limit family, or nil for a quantity without limits.
    private static func limitFamily(_ q: Quantity) -> (name: String, help: String)? {
        switch q {
        case .temperature:
            return (
                "sensorwatch_temperature_limit_celsius",
                "The sensor's plausible limits in degrees Celsius, as its driver declares them (max, crit, crit_hyst, ...)."
            )
        case .fan:
            return ("sensorwatch_fan_limit_rpm", "The fan's plausible limits in revolutions per minute (min, max).")
        case .voltage:
            return ("sensorwatch_voltage_limit_volts", "The rail's plausible limits in volts (lcrit, min, max, crit).")
        case .power:
            return ("sensorwatch_power_limit_watts", "The sensor's plausible power limits in watts (max, crit, cap).")
        case .current:
            return (
                "sensorwatch_current_limit_amperes",
                "The sensor's plausible current limits in amperes (lcrit, min, max, crit)."
            )
        case .humidity, .pressure, .state:
            return nil
        }
    }

    /// Name and help of a quantity's value family, in the base unit; nil for discrete
    /// sensors, which are not values (SPEC §23: their states are words, their warning and
    /// critical ones alarms, which `sensorwatch_alert_firing` shows through the rules).
    private static func valueFamily(_ q: Quantity) -> (name: String, help: String)? {
        switch q {
        case .temperature:
            return ("sensorwatch_temperature_celsius", "Latest successful temperature reading in degrees Celsius.")
        case .humidity:
            return (
                "sensorwatch_humidity_ratio",
                "Latest successful relative humidity reading as a ratio (0.415 is 41.5 %RH)."
            )
        case .pressure:
            return ("sensorwatch_pressure_pascals", "Latest successful pressure reading in pascals (hPa × 100).")
        case .fan:
            return (
                "sensorwatch_fan_speed_rpm",
                "Latest successful fan speed reading in revolutions per minute (0: stopped)."
            )
        case .voltage:
            return ("sensorwatch_voltage_volts", "Latest successful voltage reading in volts.")
        case .power:
            return ("sensorwatch_power_watts", "Latest successful power reading in watts.")
        case .current:
            return ("sensorwatch_current_amperes", "Latest successful current reading in amperes.")
        case .state:
            return nil
        }
    }

    private static func layoutAlerts(_ table: MetricsSnapshot.AlertTable, into l: inout Layout) {
        l.alertRules = table.rules
        l.alertSensors = table.sensors
        let entries = table.entries
        l.alertPairs = entries.flatMap { [$0.rule, $0.sensor] }
        guard !entries.isEmpty else { return }
        func key(_ i: Int) -> (String, SensorID) {
            (table.rules[entries[i].rule].name, table.sensors[entries[i].sensor].id)
        }
        l.alertOrder = entries.indices.sorted { key($0) < key($1) }
        l.family(
            "sensorwatch_alert_firing", "gauge",
            "1 while the alert of the rule for the sensor is firing, else 0 (pending counts as 0).")
        for i in l.alertOrder {
            let rule = table.rules[entries[i].rule]
            let sensor = table.sensors[entries[i].sensor].id.rawValue
            l.text(
                "sensorwatch_alert_firing{rule=\"\(PrometheusExposition.escape(rule.name))\",sensor=\"\(PrometheusExposition.escape(sensor))\",severity=\"\(rule.severity.rawValue)\"} "
            )
            l.field(.bit)
            l.text("\n")
        }
    }

    private static func layoutEvents(_ list: [MetricsSnapshot.EventCount], into l: inout Layout) {
        l.eventKeys = list.map { ($0.rule, $0.event) }
        guard !list.isEmpty else { return }
        l.family(
            "sensorwatch_alert_events_total", "counter",
            "Alert events (firing, resolved, repeat) the rule has sent since the daemon started.")
        func rank(_ e: EventKind) -> Int { e == .firing ? 0 : e == .resolved ? 1 : 2 }
        l.eventOrder = list.indices.sorted {
            (list[$0].rule, rank(list[$0].event)) < (list[$1].rule, rank(list[$1].event))
        }
        for i in l.eventOrder {
            l.text(
                "sensorwatch_alert_events_total{rule=\"\(PrometheusExposition.escape(list[i].rule))\",event=\"\(list[i].event.rawValue)\"} "
            )
            l.field(.count)
            l.text("\n")
        }
    }

    // MARK: - Text

    /// A Unix time to the millisecond.
    private static func appendTimestamp(_ out: RenderBuffer, _ t: Double) {
        let ms = (t * 1000).rounded()
        if t.isFinite, abs(ms) < 9e15 {
            out.appendFixed(Int64(ms), decimals: 3)
        } else {
            out.append(PrometheusExposition.number(t))
        }
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
