import SensorCore
import SensorSystemd
import Testing
@testable import SensorCLI

/// `history` lists silences among the events (SPEC §21), in time order, golden.
struct HistorySilenceTests {
    static let silence = JournalSilenceReader.Record(
        realtimeMicroseconds: 1_764_684_000_000_000, host: "web1",
        silence: Silence(
            id: "6f0c1d2e-8a7b-4c3d-9e1f-0a2b3c4d5e6f", rule: try! Glob("fan-*"),
            startsMicroseconds: 1_764_684_000_000_000,
            endsMicroseconds: 1_764_691_200_000_000, comment: "fan swap", by: "alice"))
    static func event(at usec: UInt64) -> JournalAlertRecord {
        JournalAlertRecord(
            realtimeMicroseconds: usec, host: "web1", kind: .firing, rule: "fan-stopped", severity: .critical,
            sensor: "sim:fan", label: "", unit: "rpm", value: 0, threshold: 300, message: "", condition: nil,
            predicted: nil, limit: nil)
    }

    @Test func silencesComeInTimeOrderAmongTheEvents() {
        let lines = HistoryFormatter.lines(
            [Self.event(at: 1_764_683_999_000_000), Self.event(at: 1_764_684_001_000_000)], silences: [Self.silence]
        ) { "T\(Int64($0 / 1_000_000) - 1_764_684_000)" }
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("T-1 web1 fan-stopped firing"))
        #expect(
            lines[1].hasPrefix(
                "T0 web1 silence 6f0c1d2e-8a7b-4c3d-9e1f-0a2b3c4d5e6f rule=fan-* sensor=* host=* by alice until "))
        #expect(lines[1].hasSuffix(": fan swap"))
        #expect(lines[2].hasPrefix("T1 web1 fan-stopped firing"))
    }

    @Test func aSilenceInJSONIsAnEventNamedSilenceWithTheSilenceInside() {
        #expect(
            HistoryFormatter.silenceJSON(Self.silence)
                == "{\"time\":\"2025-12-02T14:00:00.000000Z\",\"host\":\"web1\",\"event\":\"silence\",\"silence\":{\"id\":\"6f0c1d2e-8a7b-4c3d-9e1f-0a2b3c4d5e6f\",\"rule\":\"fan-*\",\"sensor\":null,\"host\":null,\"starts\":\"2025-12-02T14:00:00Z\",\"ends\":\"2025-12-02T16:00:00Z\",\"by\":\"alice\",\"comment\":\"fan swap\",\"state\":\"active\"}}"
        )
    }
}
