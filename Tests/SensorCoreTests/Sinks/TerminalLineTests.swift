#if canImport(Glibc)
import Glibc
#endif
import SensorRuntime
import Testing
@testable import SensorCore

/// `run` on a terminal (SPEC §19): local time, the severity word (coloured), the message.
struct TerminalLineTests {
    private func line(colour: Bool) -> TerminalLine {
        TerminalLine(
            colour: colour, wallClock: ManualWallClock(WallTime(seconds: 1_800_000_000)), clockTime: { _ in "08:00:00" }
        )
    }

    @Test func showsTimeSeverityWordAndMessageInColour() {
        let t = line(colour: true)
        #expect(
            t.render("<2>cpu-crit firing: sim:cpu 97 °C above 95 °C")
                == "08:00:00 \u{1B}[1;31mcritical\u{1B}[0m cpu-crit firing: sim:cpu 97 °C above 95 °C")
        #expect(t.render("<4>cpu-hot firing: x") == "08:00:00 \u{1B}[33mwarning\u{1B}[0m  cpu-hot firing: x")
        #expect(t.render("<3>reload failed") == "08:00:00 \u{1B}[31merror\u{1B}[0m    reload failed")
        #expect(t.render("<5>cpu-hot resolved: x") == "08:00:00 notice   cpu-hot resolved: x")
        #expect(t.render("<6>started") == "08:00:00 info     started")
    }

    @Test func withoutColourTheWordsStayAligned() {
        let t = line(colour: false)
        #expect(t.render("<2>a") == "08:00:00 critical a")
        #expect(t.render("<4>b") == "08:00:00 warning  b")
        #expect(t.render("<7>c") == "08:00:00 debug    c")
    }

    @Test func everyLineOfAMultiLineMessageAndLinesWithoutAPrefix() {
        let t = line(colour: false)
        #expect(t.render("<3>one\n<3>two") == "08:00:00 error    one\n08:00:00 error    two")
        #expect(t.render("plain <x>") == "08:00:00 plain <x>")
        #expect(t.render("<9>not a priority") == "08:00:00 <9>not a priority")
    }

    @Test(
        arguments: [
            (nil, "xterm-256color", true), ("", "xterm", true), ("1", "xterm", false), ("0", "xterm", false),
            (nil, "dumb", false), (nil, nil, true),
        ] as [(String?, String?, Bool)])
    func noColorAndDumbTerminalsTurnColourOff(_ noColor: String?, _ term: String?, _ wanted: Bool) {
        #expect(TerminalLine.colourWanted(noColor: noColor, term: term) == wanted)
    }

    @Test func aStreamSinkOnATerminalWritesThePersonsLine() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let sink = StreamAlertSink(fd: fds[1], terminal: line(colour: false))
        sink.write(line: "<4>x")
        close(fds[1])
        var buf = [UInt8](repeating: 0, count: 256)
        let n = read(fds[0], &buf, buf.count)
        close(fds[0])
        #expect(String(decoding: buf[..<max(0, n)], as: UTF8.self) == "08:00:00 warning  x\n")
    }
}
