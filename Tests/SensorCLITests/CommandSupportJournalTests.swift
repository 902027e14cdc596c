import SensorConfig
import SensorSystemd
import SensorTestKit
import Testing

@testable import SensorCLI

/// `history` and `silence list` find their journals and their trust in one step.
@Suite struct CommandSupportJournalTests {
    @Test func theJournalsAreEveryDirectoryThenEveryFileTrustedAsTheConfigurationSays() throws {
        let dir = TemporaryDirectory()
        let config = dir.write("sensorwatch.json5", #"{ trust: { units: ["other.service"] } }"#)
        let options = try Options(
            ["--file", "b.journal", "--directory", "/var/log/journal/remote", "--config", config],
            valued: ["config", "directory", "file"], flags: [])
        let journal = try CommandSupport.journal(options, command: "history", kept: "nothing")
        #expect(journal.sources == [.directory("/var/log/journal/remote"), .file("b.journal")])
        #expect(journal.trust == (try ConfigLoader.load(path: config)).trust)
        #expect(journal.trust != .daemon)
    }

    @Test func aConfigurationThatDoesNotLoadEndsTheCommandWithTheConfigurationsExitCode() throws {
        let options = try Options(
            ["--file", "b.journal", "--config", "/nonexistent/sensorwatch.json5"], valued: ["config", "file"],
            flags: [])
        #expect(throws: ExitCode.config) {
            try CommandSupport.journal(options, command: "silence", kept: "nothing")
        }
    }
}
