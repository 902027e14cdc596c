import SensorCore
import SensorTestKit
import Testing
@testable import SensorSystemd

/// Without journald, `history` and `silence` say what is missing and what to do (issue 34),
/// rather than answering as if all were well.
struct SystemJournalTests {
    @Test func noSocketIsNoJournalAndSaysWhich() {
        let dir = TemporaryDirectory()
        #expect(
            SystemJournal.missing(socketPath: dir.path("socket"))
                == "no journal: systemd-journald is not running (no \(dir.path("socket")))")
    }

    @Test func aSilenceWithoutJournaldIsNotKeptAndThePersonIsToldWhatToDo() throws {
        let dir = TemporaryDirectory()
        let silence = Silence(
            id: "s1", rule: try Glob("fan-*"), sensor: nil, host: nil, startsMicroseconds: 0, endsMicroseconds: 1,
            comment: "", by: "root")
        #expect(
            throws: JournalSilenceWriter.WriteError(
                description:
                    "no journal: systemd-journald is not running (no \(dir.path("socket"))): the silence was not kept "
                    + "(a silence is a journal entry); start systemd-journald (systemctl start systemd-journald) and give the command again"
            )
        ) {
            try JournalSilenceWriter(socketPath: dir.path("socket")).write(silence)
        }
    }
}
