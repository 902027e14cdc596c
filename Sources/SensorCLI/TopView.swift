import SensorLive
import SensorTerminal

/// What `top` shows besides the stream's data, and how keys change it: the selected row,
/// the scroll, the filter, the mode (list, help, a row's details, a prompt), the status line.
struct TopView: Sendable, Hashable {
    enum Mode: Sendable, Hashable {
        case list
        case help
        case details(sensor: String)
        case prompt(Prompt)
    }

    struct Prompt: Sendable, Hashable {
        enum Purpose: Sendable, Hashable {
            case filter
            case silence(rule: String, sensor: String)
        }

        var purpose: Purpose
        var text: String
    }

    /// The default duration of a silence made with `s`.
    static let defaultSilence = "1h"

    /// The selected sensor's id (kept by id: rows come and go under it).
    var selected: String?
    /// The first list line shown.
    var top = 0
    /// The filter glob (`/`); empty for none.
    var filter = ""
    /// Only what fires or pends (`f`).
    var alertsOnly = false
    var mode = Mode.list
    /// A line for the status bar: an error, what a silence did.
    var message: String?

    /// Handles `key` with `rows` on screen and `page` list lines visible; returns what the
    /// command must do, if anything.
    mutating func handle(_ key: Key, rows: [TopRow], page: Int) -> TopAction? {
        if case .prompt(var prompt) = mode {
            switch key {
            case .ctrl("c"): return .quit
            case .escape, .ctrl("g"):
                mode = .list
            case .enter:
                mode = .list
                switch prompt.purpose {
                case .filter:
                    filter = prompt.text
                    if !filter.isEmpty, TopRow.filterGlob(filter) == nil { message = "not a glob: \(filter)" }
                case .silence(let rule, let sensor):
                    let duration = prompt.text.isEmpty ? Self.defaultSilence : prompt.text
                    return .silence(rule: rule, sensor: sensor, duration: duration)
                }
            case .backspace:
                if !prompt.text.isEmpty { prompt.text.removeLast() }
                mode = .prompt(prompt)
            case .character(let c):
                if prompt.text.count < 200 { prompt.text.append(c) }
                mode = .prompt(prompt)
            default: break
            }
            return nil
        }
        switch key {
        case .character("q"), .ctrl("c"): return .quit
        case .ctrl("l"): return .repaint
        default: break
        }
        if mode != .list {
            // Help and details: any other key goes back to the list (Enter and Escape too).
            mode = .list
            return nil
        }
        message = nil
        let index = rows.firstIndex { $0.id == selected }
        switch key {
        case .up: select(rows, (index ?? 0) - 1)
        case .down: select(rows, index.map { $0 + 1 } ?? 0)
        case .pageUp: select(rows, (index ?? 0) - max(1, page - 1))
        case .pageDown: select(rows, (index ?? 0) + max(1, page - 1))
        case .home: select(rows, 0)
        case .end: select(rows, rows.count - 1)
        case .character("?"): mode = .help
        case .character("/"): mode = .prompt(Prompt(purpose: .filter, text: filter))
        case .character("f"): alertsOnly.toggle()
        case .enter:
            guard let index else { return nil }
            mode = .details(sensor: rows[index].id)
            return .details(sensor: rows[index].id)
        case .character("s"):
            guard let index, let alert = rows[index].alerts.first else {
                message = "s silences an alert: select a row that fires or pends"
                return nil
            }
            mode = .prompt(Prompt(purpose: .silence(rule: alert.rule, sensor: alert.sensor), text: ""))
        case .escape:
            filter = ""
            alertsOnly = false
        default: break
        }
        return nil
    }

    /// Keeps the selection on a row that exists (the first when none is).
    mutating func settle(_ rows: [TopRow]) {
        if rows.isEmpty { selected = nil; return }
        if selected == nil || !rows.contains(where: { $0.id == selected }) { selected = rows[0].id }
    }

    private mutating func select(_ rows: [TopRow], _ index: Int) {
        guard !rows.isEmpty else { return }
        selected = rows[min(rows.count - 1, max(0, index))].id
    }
}
