import SensorCore
import SensorLive
import SensorRuntime
import SensorTerminal

/// Draws one frame of `top` (SPEC §22) into a cell grid: the header, the column heads, the
/// rows grouped by chip or source, and the status line; or the help, or a row's details.
/// Pure: the same inputs give the same grid, so the renderer's difference is only what
/// changed, and the tests read the screen as a person would.
struct TopScreen: Sendable {
    /// The smallest screen `top` draws on.
    static let minimum = TerminalSize(rows: 24, columns: 80)

    var state: LiveState
    var rows: [TopRow]
    var view: TopView
    var connection: TopConnection
    /// Unix seconds now (the clock, the uptime, the sparkline's window).
    var now: Double
    /// Block elements, or ASCII.
    var utf8: Bool
    /// The lines of the details view (rules, limits, transitions), when it is shown.
    var details: [String] = []
    /// Unix seconds as `HH:MM:SS`.
    var clockTime: @Sendable (Double) -> String = TerminalLine.localClockTime

    private static let headStyle = CellStyle(reverse: true)
    private static let bold = CellStyle(bold: true)
    private static let dim = CellStyle(dim: true)

    /// The list's lines: a group's heading, or a row (its index in `rows`).
    enum Line: Hashable {
        case group(String)
        case row(Int)
    }

    /// The list's lines in order: each group's heading before its rows.
    static func lines(_ rows: [TopRow]) -> [Line] {
        var out: [Line] = []
        var group: String?
        for (i, r) in rows.enumerated() {
            if r.group != group {
                out.append(.group(r.group))
                group = r.group
            }
            out.append(.row(i))
        }
        return out
    }

    /// How many list lines fit on a screen of `size`.
    static func page(_ size: TerminalSize) -> Int { Swift.max(1, size.rows - 3) }

    /// `view` with its scroll moved so the selected row (and its group's heading) shows.
    static func scrolled(_ view: TopView, rows: [TopRow], size: TerminalSize) -> TopView {
        var v = view
        let list = lines(rows)
        let page = page(size)
        v.top = Swift.min(v.top, Swift.max(0, list.count - page))
        guard let id = v.selected, let r = rows.firstIndex(where: { $0.id == id }),
            let at = list.firstIndex(of: .row(r))
        else { return v }
        if at < v.top { v.top = at > 0 && list[at - 1] != .row(r - 1) ? at - 1 : at }
        if at >= v.top + page { v.top = at - page + 1 }
        return v
    }

    /// The frame for a screen of `size`.
    func grid(_ size: TerminalSize) -> ScreenGrid {
        var g = ScreenGrid(size: size)
        guard size.holds(Self.minimum) else {
            g.put("sensorwatch top needs at least \(Self.minimum); this terminal is \(size)", row: 0, column: 0)
            return g
        }
        header(&g)
        switch view.mode {
        case .help: help(&g)
        case .details: detailsView(&g)
        default: list(&g)
        }
        statusLine(&g)
        return g
    }

    private func header(_ g: inout ScreenGrid) {
        let width = g.size.columns
        g.fill(row: 0, column: 0, width: width, style: Self.headStyle)
        let firing = state.alerts.values.filter { $0.state == .firing && $0.silenced == nil }.count
        let silenced = state.alerts.values.filter { $0.state == .firing && $0.silenced != nil }.count
        var text = " " + (state.hello?.host ?? "sensorwatch")
        text += "  sensors \(state.sensors.count)  firing \(firing)  silenced \(silenced)"
        switch connection {
        case .connecting: text += "  no daemon yet, waiting for it"
        case .live: if let started = state.hello?.started { text += "  up " + Self.uptime(now - started) }
        case .gone(let since): text += "  daemon gone since " + clockTime(since) + ", reconnecting"
        case .standalone: text += "  standalone"
        }
        var style = Self.headStyle
        if case .gone = connection { style.colour = .red; style.bold = true }
        let end = g.put(text, row: 0, column: 0, width: width, style: style)
        let clock = clockTime(now)
        if end + clock.count + 2 <= width {
            g.put(clock, row: 0, column: width - clock.count - 1, style: Self.headStyle)
        }
        let c = TopColumns(width: width)
        let heads = ["SENSOR", "VALUE", "10 MIN", "MIN", "MAX", "LIMITS", "STATE"]
        for (i, start) in c.starts.enumerated() { g.put(heads[i], row: 1, column: start, style: Self.bold) }
    }

    private func list(_ g: inout ScreenGrid) {
        let all = Self.lines(rows)
        let page = Self.page(g.size)
        if rows.isEmpty {
            let why =
                !state.hasSnapshot
                ? "waiting for the daemon's sensors…"
                : view.filter.isEmpty && !view.alertsOnly ? "no sensors" : "nothing matches (Escape clears the filter)"
            g.put(why, row: 2, column: 1, style: Self.dim)
            return
        }
        let c = TopColumns(width: g.size.columns)
        for (n, line) in all.dropFirst(view.top).prefix(page).enumerated() {
            let y = 2 + n
            switch line {
            case .group(let name): g.put((utf8 ? "▸ " : "> ") + name, row: y, column: 0, style: Self.bold)
            case .row(let i): row(&g, y, rows[i], c)
            }
        }
    }

    private func row(_ g: inout ScreenGrid, _ y: Int, _ r: TopRow, _ c: TopColumns) {
        let selected = r.id == view.selected
        let base = CellStyle(reverse: selected)
        if selected { g.fill(row: y, column: 0, width: g.size.columns, style: base) }
        let s = c.starts
        var name = "  " + (r.label.isEmpty ? r.id : r.label)
        if !r.label.isEmpty && r.label != r.id { name += " " }
        let end = g.put(name, row: y, column: s[0], width: c.sensor, style: base)
        if !r.label.isEmpty && r.label != r.id {
            g.put(
                r.id, row: y, column: end, width: c.sensor - (end - s[0]),
                style: CellStyle(reverse: selected, dim: true))
        }
        let unit = r.sensor.unit
        if let words = r.sensor.state, r.sensor.ok, !r.sensor.asleep {
            // A discrete sensor's states in place of a value (SPEC §23), over the value, sparkline,
            // min and max columns it has no use for; a long list is cut where the limits begin.
            g.put(
                DisplayText.escaped(EventFormatter.states(words)), row: y, column: s[1], width: s[5] - s[1] - 1,
                style: base)
        } else if let v = r.sensor.value, r.sensor.ok, !r.sensor.asleep {
            let text = Self.number(v) + (unit.isEmpty ? "" : " " + unit)
            g.put(Self.right(text, c.value), row: y, column: s[1], width: c.value, style: base)
        }
        // A discrete sensor's history is of state bits, not a quantity: no sparkline, min or max.
        let window =
            r.sensor.quantity == Quantity.state.rawValue
            ? (values: [], low: nil, high: nil) : Self.window(state.history[r.id] ?? [], now: now, cells: c.spark)
        if let low = window.low, let high = window.high {
            g.put(
                Sparkline.line(window.values, low: low, high: high, utf8: utf8), row: y, column: s[2], width: c.spark,
                style: base)
            g.put(Self.right(Self.number(low), c.min), row: y, column: s[3], width: c.min, style: base)
            g.put(Self.right(Self.number(high), c.max), row: y, column: s[4], width: c.max, style: base)
        }
        let limits = [r.sensor.limits["max"], r.sensor.limits["crit"]]
        if limits.contains(where: { $0 != nil }) {
            let text = limits.map { $0.map(Self.number) ?? "-" }.joined(separator: "/")
            g.put(Self.right(text, c.limits), row: y, column: s[5], width: c.limits, style: base)
        }
        let (text, colour, bold) = Self.describe(r.state, clockTime)
        g.put(
            text, row: y, column: s[6], width: c.state, style: CellStyle(colour: colour, bold: bold, reverse: selected))
    }

    /// A state's words and colour: `FIRING rule` in the severity's colour.
    static func describe(_ state: TopRowState, _ clockTime: (Double) -> String) -> (String, CellStyle.Colour?, Bool) {
        switch state {
        case .ok: return ("ok", .green, false)
        case .waiting: return ("no value yet", nil, false)
        case .asleep: return ("asleep", .blue, false)
        case .fault(let error): return ("fault: " + error, .magenta, false)
        case .pending(let rule): return ("pending " + rule, .cyan, false)
        case .firing(let rule, let severity):
            return ("FIRING " + rule, severity == "critical" ? .red : severity == "warning" ? .yellow : nil, true)
        case .silenced(let rule, let until): return ("silenced until " + clockTime(until) + " " + rule, nil, false)
        }
    }

    /// The sparkline's values over the last 10 minutes, `cells` slots of the buckets (the
    /// highest of each), and the window's lowest and highest.
    static func window(
        _ buckets: [LiveBucket], now: Double, cells: Int
    ) -> (values: [Double?], low: Double?, high: Double?) {
        let slot = Int64(600 / Swift.max(1, cells))
        let nowWhole = Int64(now.rounded(.down))
        let lastStart = nowWhole - ((nowWhole % slot) + slot) % slot
        let first = lastStart - slot * Int64(cells - 1)
        var values = [Double?](repeating: nil, count: cells)
        var low: Double?
        var high: Double?
        for b in buckets where b.time >= first && b.time < lastStart + slot {
            let i = Int((b.time - first) / slot)
            values[i] = Swift.max(values[i] ?? b.max, b.max)
            low = Swift.min(low ?? b.min, b.min)
            high = Swift.max(high ?? b.max, b.max)
        }
        return (values, low, high)
    }

    private func help(_ g: inout ScreenGrid) {
        let lines = [
            "Keys", "",
            "  " + (utf8 ? "↑ ↓    " : "Up Down") + "  PgUp PgDn  Home End  move through the rows",
            "  /                          filter by a glob on id or label (Enter applies, Escape cancels)",
            "  f                          only what fires or pends (again: everything)",
            "  Enter                      the row's rules, limits and last transitions",
            "  s                          silence the row's alert for a while (default 1h)",
            "  Escape                     clear the filter",
            "  Ctrl-L                     draw the screen anew",
            "  ?                          this help",
            "  q  Ctrl-C                  quit", "",
            "Any key goes back.",
        ]
        for (i, l) in lines.enumerated() { g.put(l, row: 2 + i, column: 1, style: i == 0 ? Self.bold : .plain) }
    }

    private func detailsView(_ g: inout ScreenGrid) {
        for (i, l) in details.prefix(g.size.rows - 3).enumerated() {
            g.put(l, row: 2 + i, column: 1, style: i == 0 ? Self.bold : .plain)
        }
    }

    private func statusLine(_ g: inout ScreenGrid) {
        let y = g.size.rows - 1
        if case .prompt(let p) = view.mode {
            let question: String
            switch p.purpose {
            case .filter: question = "filter (glob on id or label): "
            case .silence(let rule, let sensor):
                question = "silence \(rule) on \(sensor) for [\(TopView.defaultSilence)]: "
            }
            let end = g.put(question + p.text, row: y, column: 0)
            g.put(" ", row: y, column: end, style: CellStyle(reverse: true))
            return
        }
        if let message = view.message {
            g.put(message, row: y, column: 0, style: CellStyle(colour: .yellow, bold: true))
            return
        }
        var hint = "q quit  ? help  / filter  f firing  Enter details  s silence"
        if view.alertsOnly { hint += "  [firing only]" }
        if !view.filter.isEmpty { hint += "  [filter " + view.filter + "]" }
        g.put(hint, row: y, column: 0, style: Self.dim)
    }

    /// A value for a column in three significant digits or so: `1200`, `55.1`, `1.05` (a
    /// core voltage needs its hundredths, a temperature not).
    static func number(_ v: Double) -> String {
        let a = abs(v)
        return NumberText.decimals(v, places: a >= 100 ? 0 : a >= 10 ? 1 : 2)
    }

    /// `text` right-aligned in `width` cells.
    static func right(_ text: String, _ width: Int) -> String {
        let w = DisplayWidth.cells(text)
        return w >= width ? text : String(repeating: " ", count: width - w) + text
    }

    /// `3d 04:05`, `04:05:06`: how long the daemon has run.
    static func uptime(_ seconds: Double) -> String {
        let s = Swift.max(0, Int(seconds))
        let hms = String(format2(s / 3600 % 24)) + ":" + format2(s / 60 % 60) + ":" + format2(s % 60)
        return s >= 86400 ? "\(s / 86400)d " + hms : hms
    }

    private static func format2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
