#if canImport(Glibc)
import Glibc
#endif
@testable import SensorCore
@testable import SensorRuntime
import Testing

/// A sensor label from a hostile sysfs tree in every line the daemon writes (SPEC §7, §19):
/// one line per event, no control character but the terminal's own colours, no `<0>` line.
struct HostileTextOutputTests {
    static let label = "\u{1B}[2J\u{1B}]52;c;aGk=\u{7}\r\n<0>forged"
    static let shown = #"\x1b[2J\x1b]52;c;aGk=\x07\r\n<0>forged"#
    static let sensor = SensorInfo(id: "hwmon:evil\u{9B}2J/temp1", label: label, quantity: .temperature)
    static let event = AlertEvent(
        time: .seconds(3), kind: .firing, rule: "hot\u{7}", ruleIndex: 0, sensor: sensor, severity: .critical,
        value: 91, threshold: 80, condition: .above)

    @Test func anEventsMessageIsOneLineWithItsOutsideTextEscaped() {
        #expect(
            Self.event.message
                == #"hot\x07 firing: hwmon:evil\u{9b}2J/temp1 ("# + Self.shown + ") 91 °C above 80 °C")
        #expect(EventFormatter.line(Self.event).split(separator: "\n").count == 1)
    }

    @Test func aFaultsMessageIsOneLineToo() {
        let fault = SensorFault(time: .seconds(1), sensor: Self.sensor, reason: "not a number: \"\u{1B}[5m\"")
        #expect(
            fault.message
                == #"sensor hwmon:evil\u{9b}2J/temp1 ("# + Self.shown + #") read failed: not a number: "\x1b[5m""#)
    }

    @Test func jsonEscapesEveryControlCharacterAsJSONDoes() {
        #expect(JSONWriter.string("\u{1B}[2J\u{7}\r\n\u{0}") == #""\u001b[2J\u0007\r\n\u0000""#)
        #expect(JSONWriter.string("a\u{7F}\u{9B}\u{2028}b") == #""a\u007f\u009b\u2028b""#)
        #expect(JSONWriter.string("°C \"q\" \\") == #""°C \"q\" \\""#)
        #expect(JSONWriter.string("°C") == "\"°C\"")
    }

    @Test func anEventOnStderrIsOneLineWithItsPriorityAndNoForgedLine() throws {
        let lines = try Self.written { StreamAlertSink(fd: $0).emit(Self.event) }
        #expect(lines == ["<2>" + Self.event.message])
    }

    @Test func onATerminalOnlyTheSeverityColourIsAControlSequence() throws {
        let terminal = TerminalLine(colour: true, wallClock: ManualWallClock(.epoch), clockTime: { _ in "08:00:00" })
        let lines = try Self.written { StreamAlertSink(fd: $0, terminal: terminal).emit(Self.event) }
        #expect(lines == ["08:00:00 \u{1B}[1;31mcritical\u{1B}[0m " + Self.event.message])
    }

    /// A log entry keeps its own lines, each with its prefix; text it quotes starts none.
    @Test func aLogEntryQuotingTheLabelHasItsPrefixOnEveryLine() throws {
        let entry = LogEntry(level: .warning, message: "cannot read \(Self.label)\r\nsecond line")
        let lines = try Self.written { StreamLog(stream: StreamAlertSink(fd: $0)).write(entry) }
        #expect(lines == [#"<4>cannot read \x1b[2J\x1b]52;c;aGk=\x07\r"#, "<4><0>forged\\r", "<4>second line"])
        #expect(!lines.contains { $0.hasPrefix("<0>") })
    }

    /// The lines `body` writes to a pipe.
    private static func written(_ body: (Int32) -> Void) throws -> [String] {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]) }
        body(fds[1])
        close(fds[1])
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case let n = read(fds[0], &buffer, buffer.count), n > 0 { bytes += buffer[..<n] }
        #expect(!bytes.contains { $0 < 0x20 && $0 != 0x0A && $0 != 0x1B }, "no raw control character but colour's ESC")
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
