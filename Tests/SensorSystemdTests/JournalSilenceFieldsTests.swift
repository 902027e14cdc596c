import Testing
@testable import SensorCore
@testable import SensorSystemd

/// A silence's journal entry (SPEC §21), golden, and read back as the same silence.
struct JournalSilenceFieldsTests {
    static let silence = Silence(
        id: "6f0c1d2e-8a7b-4c3d-9e1f-0a2b3c4d5e6f", rule: try! Glob("fan-*"), host: try! Glob("web1"),
        startsMicroseconds: 1_764_684_000_000_000, endsMicroseconds: 1_764_691_200_250_000, comment: "fan swap",
        by: "alice")

    @Test func aSilenceEntryHasItsIdStateMatchersTimesAndWho() {
        #expect(
            JournalFields.fields(for: Self.silence) == [
                "MESSAGE=silence 6f0c1d2e-8a7b-4c3d-9e1f-0a2b3c4d5e6f (rule=fan-* sensor=* host=web1) by alice until 2025-12-02T16:00:00.250000Z: fan swap",
                "PRIORITY=5", "SYSLOG_IDENTIFIER=sensorwatch", "MESSAGE_ID=9b1e4c2a7d5f4e0b8a36c1f2e7d49a50",
                "SILENCE_ID=6f0c1d2e-8a7b-4c3d-9e1f-0a2b3c4d5e6f", "SILENCE_STATE=active", "SILENCE_RULE=fan-*",
                "SILENCE_HOST=web1", "SILENCE_STARTS=2025-12-02T14:00:00Z", "SILENCE_ENDS=2025-12-02T16:00:00.250000Z",
                "SILENCE_COMMENT=fan swap", "SILENCE_BY=alice",
            ])
        var expired = Self.silence
        expired.expired = true
        expired.by = "bob"
        #expect(
            JournalFields.message(expired)
                == "silence 6f0c1d2e-8a7b-4c3d-9e1f-0a2b3c4d5e6f (rule=fan-* sensor=* host=web1) expired by bob: fan swap"
        )
    }

    static func readBack(_ fields: [String]) -> Silence? {
        try? JournalEntryDecoder.silence(JournalEntryDecoder.fields(fields))
    }

    @Test func anEntryReadsBackAsTheSameSilence() {
        #expect(Self.readBack(JournalFields.fields(for: Self.silence)) == Self.silence)
        var expired = Self.silence
        expired.expired = true
        #expect(Self.readBack(JournalFields.fields(for: expired)) == expired)
    }

    @Test func anEntryWithoutIdOrWithABadTimeOrGlobIsUnreadable() {
        let fields = JournalFields.fields(for: Self.silence)
        #expect(Self.readBack(fields.filter { !$0.hasPrefix("SILENCE_ID=") }) == nil)
        #expect(Self.readBack(fields.map { $0.hasPrefix("SILENCE_ENDS=") ? "SILENCE_ENDS=later" : $0 }) == nil)
        #expect(Self.readBack(fields.map { $0.hasPrefix("SILENCE_RULE=") ? "SILENCE_RULE=[" : $0 }) == nil)
    }
}
