import Testing
@testable import SensorCLI
@testable import SensorCore

/// `silence list`'s output, golden: a person's table and the JSON array.
struct SilenceFormatterTests {
    static let silences = [
        Silence(
            id: "6f0c1d2e-8a7b-4c3d-9e1f-0a2b3c4d5e6f", rule: try! Glob("fan-*"), host: try! Glob("web1"),
            startsMicroseconds: 1_764_684_000_000_000, endsMicroseconds: 1_764_691_200_000_000,
            comment: "fan swap\u{1b}[2J", by: "alice"),
        Silence(
            id: "00000000-0000-0000-0000-000000000001", sensor: try! Glob("sim:\"cpu\""),
            startsMicroseconds: 1_764_684_000_500_000, endsMicroseconds: 1_764_770_400_000_000, by: "root"),
    ]

    @Test func theTableAlignsItsColumnsAndEscapesControlCharacters() {
        let lines = SilenceFormatter.table(Self.silences) { "T\($0 / 1_000_000_000_000)" }
        #expect(
            lines == [
                "ID                                    MATCHERS                        STARTS  ENDS   BY     COMMENT",
                "6f0c1d2e-8a7b-4c3d-9e1f-0a2b3c4d5e6f  rule=fan-* sensor=* host=web1   T1764   T1764  alice  fan swap\\x1b[2J",
                "00000000-0000-0000-0000-000000000001  rule=* sensor=sim:\"cpu\" host=*  T1764   T1764  root",
            ])
    }

    @Test func jsonHasEveryFieldAndNullForALeftOutMatcher() {
        #expect(
            SilenceFormatter.jsonArray(Self.silences)
                == "[{\"id\":\"6f0c1d2e-8a7b-4c3d-9e1f-0a2b3c4d5e6f\",\"rule\":\"fan-*\",\"sensor\":null,\"host\":\"web1\",\"starts\":\"2025-12-02T14:00:00Z\",\"ends\":\"2025-12-02T16:00:00Z\",\"by\":\"alice\",\"comment\":\"fan swap\\u001b[2J\",\"state\":\"active\"},"
                + "{\"id\":\"00000000-0000-0000-0000-000000000001\",\"rule\":null,\"sensor\":\"sim:\\\"cpu\\\"\",\"host\":null,\"starts\":\"2025-12-02T14:00:00.500000Z\",\"ends\":\"2025-12-03T14:00:00Z\",\"by\":\"root\",\"comment\":\"\",\"state\":\"active\"}]"
        )
        #expect(SilenceFormatter.jsonArray([]) == "[]")
    }
}
