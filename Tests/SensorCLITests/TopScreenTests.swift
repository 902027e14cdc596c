import SensorLive
import SensorTerminal
import Testing
@testable import SensorCLI

/// What `top` draws (SPEC §22), read off the cell grid as a person would read the screen.
struct TopScreenTests {
    let size = TerminalSize(rows: 24, columns: 80)

    func screen(
        _ state: LiveState = TopFixtures.state(), view: TopView = TopView(), connection: TopConnection = .live,
        utf8: Bool = true
    ) -> ScreenGrid {
        let rows = TopRow.rows(state, filter: view.filter, alertsOnly: view.alertsOnly)
        var v = view
        v.settle(rows)
        return TopScreen(
            state: state, rows: rows, view: v, connection: connection, now: TopFixtures.t0, utf8: utf8,
            clockTime: { _ in "12:00:00" }
        ).grid(size)
    }

    func text(_ g: ScreenGrid) -> [String] { (0..<g.size.rows).map(g.line) }

    func row(_ g: ScreenGrid, containing needle: String) -> Int? {
        let lines = text(g)
        return lines.firstIndex { $0.contains(needle) }
    }

    @Test func theHeaderSaysHostUptimeAndCounts() {
        let head = screen().line(0)
        #expect(head.contains("web1"))
        #expect(head.contains("up 3d 01:00:00"))
        #expect(head.contains("sensors 4  firing 1  silenced 0"))
        #expect(head.contains("12:00:00"))
    }

    @Test func rowsAreGroupedByChipWithValueSparklineMinMaxLimitsAndState() throws {
        let g = screen()
        let lines = text(g)
        let group = try #require(row(g, containing: "▸ hwmon:coretemp-isa-0000"))
        let pkg = try #require(row(g, containing: "Package id 0"))
        #expect(pkg == group + 1)
        let line = lines[pkg]
        #expect(line.contains("55 °C"))
        #expect(line.contains("80/100"))
        #expect(line.contains("FIRING cpu-hot"))
        #expect(line.contains { Sparkline.blocks.contains($0) })
        #expect(line.contains("64"))  // the window's max: 55 + 9
        #expect(try #require(row(g, containing: "CPU fan")) > pkg)
        #expect(lines.contains { $0.contains("▸ thermal") })
    }

    @Test func aBMCsDiscreteSensorRowShowsItsStatesWordsWithoutSparklineOrRange() throws {
        let psu = LiveSensor(
            id: "ipmi:bmc-r1-01/PSU1_Status", label: "PSU1 Status", quantity: "state", unit: "", time: TopFixtures.t0,
            state: ["Presence detected"])
        var state = TopFixtures.state()
        // Its history is of state bits (1, then 3): not a quantity to draw.
        let bits = (0..<120).map { i in
            LiveBucket(
                time: LiveBucket.start(of: TopFixtures.t0) - Int64(119 - i) * 5, min: 1, max: i < 60 ? 1 : 3,
                last: i < 60 ? 1 : 3)
        }
        state.apply(
            .snapshot(
                LiveSnapshot(
                    sensors: TopFixtures.sensors + [psu], alerts: [TopFixtures.firing],
                    history: ["ipmi:bmc-r1-01/PSU1_Status": bits])))
        let g = screen(state)
        let y = try #require(row(g, containing: "PSU1 Status"))
        #expect(g.line(y) == "  PSU1 Status ipmi:bm Presence detected                        ok               ")
    }

    @Test func aFiringRowSaysFiringInItsSeveritysColour() throws {
        let g = screen()
        let y = try #require(row(g, containing: "FIRING cpu-hot"))
        let x = try #require((0..<g.size.columns).first { g[y, $0].text == "F" && g[y, $0 + 1].text == "I" })
        #expect(g[y, x].style.colour == .red)
        #expect(g[y, x].style.bold)
    }

    @Test func stateWordsForEveryCase() {
        let t: (Double) -> String = { _ in "13:00:00" }
        #expect(TopScreen.describe(.pending(rule: "warm"), t).0 == "pending warm")
        #expect(TopScreen.describe(.silenced(rule: "hot", until: 0), t).0 == "silenced until 13:00:00 hot")
        #expect(TopScreen.describe(.asleep, t).0 == "asleep")
        #expect(TopScreen.describe(.fault("EIO"), t).0 == "fault: EIO")
        #expect(TopScreen.describe(.firing(rule: "x", severity: "warning"), t).1 == .yellow)
    }

    @Test func aHostileLabelIsShownEscaped() {
        var state = TopFixtures.state()
        state.apply(
            .change(
                LiveChange(
                    time: TopFixtures.t0, sensors: [TopFixtures.sensor("thermal:evil", "bad\u{1B}[2J\u{07}label")])))
        let g = screen(state)
        #expect(text(g).contains { $0.contains(#"bad\x1b[2J\x07label"#) })
        #expect(!g.cells.contains { $0.text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } })
    }

    @Test func theSparklineIsASCIIOutsideUTF8() throws {
        let g = screen(utf8: false)
        let line = g.line(try #require(row(g, containing: "Package id 0")))
        #expect(!line.contains { Sparkline.blocks.contains($0) })
        #expect(line.contains("#"))
        #expect(text(g).contains { $0.hasPrefix("> hwmon:coretemp") })
    }

    @Test func theDaemonGoneIsSaidInTheHeader() {
        #expect(
            screen(connection: .gone(since: TopFixtures.t0)).line(0).contains(
                "daemon gone since 12:00:00, reconnecting"))
        #expect(screen(connection: .standalone).line(0).contains("standalone"))
    }

    @Test func aFilterAndFiringOnlyLeaveOutTheOthers() {
        var view = TopView()
        view.filter = "fan"
        let fans = screen(view: view)
        #expect(row(fans, containing: "CPU fan") != nil)
        #expect(row(fans, containing: "Package id 0") == nil)
        view.filter = ""
        view.alertsOnly = true
        let g = screen(view: view)
        #expect(row(g, containing: "Package id 0") != nil)
        #expect(row(g, containing: "CPU fan") == nil)
    }

    @Test func tooSmallAScreenGetsOneLineNotGarbage() {
        let small = TerminalSize(rows: 20, columns: 70)
        let g = TopScreen(state: TopFixtures.state(), rows: [], view: TopView(), connection: .live, now: 0, utf8: true)
            .grid(small)
        #expect(g.line(0).hasPrefix("sensorwatch top needs at least 80×24; this terminal is 70×20"))
        #expect(g.line(1).allSatisfy { $0 == " " })
    }

    @Test func theWindowPutsBucketsInSlotsAndFindsItsMinAndMax() {
        let now = 1_800_000_000.0
        let start = LiveBucket.start(of: now)
        let buckets = [
            LiveBucket(time: start - 600, min: 1, max: 1, last: 1),  // outside the 10 minutes
            LiveBucket(time: start - 300, min: 40, max: 45, last: 42),
            LiveBucket(time: start, min: 50, max: 60, last: 55),
        ]
        let w = TopScreen.window(buckets, now: now, cells: 10)
        #expect(w.low == 40)
        #expect(w.high == 60)
        #expect(w.values.last == 60)
        #expect(w.values.compactMap { $0 }.count == 2)
    }
}
