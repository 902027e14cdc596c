import SensorLive
import SensorTerminal
import Testing
@testable import SensorCLI

/// `top`'s keys (SPEC §22).
struct TopViewTests {
    let rows = TopRow.rows(TopFixtures.state())

    func viewed() -> TopView {
        var v = TopView()
        v.settle(rows)
        return v
    }

    @Test func arrowsPagesHomeAndEndMoveTheSelection() {
        var v = viewed()
        #expect(v.selected == rows[0].id)
        _ = v.handle(.down, rows: rows, page: 20)
        #expect(v.selected == rows[1].id)
        _ = v.handle(.up, rows: rows, page: 20)
        _ = v.handle(.up, rows: rows, page: 20)
        #expect(v.selected == rows[0].id)
        _ = v.handle(.end, rows: rows, page: 20)
        #expect(v.selected == rows.last?.id)
        _ = v.handle(.home, rows: rows, page: 20)
        _ = v.handle(.pageDown, rows: rows, page: 3)
        #expect(v.selected == rows[2].id)
        _ = v.handle(.pageUp, rows: rows, page: 3)
        #expect(v.selected == rows[0].id)
    }

    @Test func qAndCtrlCQuitCtrlLRepaints() {
        var v = viewed()
        #expect(v.handle(.character("q"), rows: rows, page: 20) == .quit)
        #expect(v.handle(.ctrl("c"), rows: rows, page: 20) == .quit)
        #expect(v.handle(.ctrl("l"), rows: rows, page: 20) == .repaint)
    }

    @Test func slashAsksForAFilterAndEnterAppliesIt() {
        var v = viewed()
        _ = v.handle(.character("/"), rows: rows, page: 20)
        for c in "fan" { _ = v.handle(.character(c), rows: rows, page: 20) }
        _ = v.handle(.enter, rows: rows, page: 20)
        #expect(v.filter == "fan")
        #expect(v.mode == .list)
        _ = v.handle(.escape, rows: rows, page: 20)
        #expect(v.filter.isEmpty)
    }

    @Test func fTogglesFiringOnlyAndQuestionMarkShowsHelp() {
        var v = viewed()
        _ = v.handle(.character("f"), rows: rows, page: 20)
        #expect(v.alertsOnly)
        _ = v.handle(.character("?"), rows: rows, page: 20)
        #expect(v.mode == .help)
        _ = v.handle(.character("x"), rows: rows, page: 20)
        #expect(v.mode == .list)
    }

    @Test func sOnAnAlertAsksForADurationDefaultOneHour() throws {
        var v = viewed()
        let firing = try #require(rows.firstIndex { $0.state.isAlert })
        v.selected = rows[firing].id
        #expect(v.handle(.character("s"), rows: rows, page: 20) == nil)
        guard case .prompt = v.mode else { Issue.record("no prompt"); return }
        #expect(
            v.handle(.enter, rows: rows, page: 20) == .silence(rule: "cpu-hot", sensor: rows[firing].id, duration: "1h")
        )
        _ = v.handle(.character("s"), rows: rows, page: 20)
        for c in "30m" { _ = v.handle(.character(c), rows: rows, page: 20) }
        #expect(
            v.handle(.enter, rows: rows, page: 20)
                == .silence(rule: "cpu-hot", sensor: rows[firing].id, duration: "30m"))
    }

    @Test func sOnARowWithoutAnAlertSaysWhy() throws {
        var v = viewed()
        v.selected = try #require(rows.first { !$0.state.isAlert }).id
        _ = v.handle(.character("s"), rows: rows, page: 20)
        #expect(v.mode == .list)
        #expect(v.message?.contains("select a row that fires or pends") == true)
    }

    @Test func enterShowsTheRowsDetails() {
        var v = viewed()
        #expect(v.handle(.enter, rows: rows, page: 20) == .details(sensor: rows[0].id))
        #expect(v.mode == .details(sensor: rows[0].id))
        _ = v.handle(.enter, rows: rows, page: 20)
        #expect(v.mode == .list)
    }
}
