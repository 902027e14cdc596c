import Testing
@testable import SensorCLI

struct HistoryCommandTests {
    @Test(arguments: [
        ["--since"], ["--since", "soon"], ["--bogus"], ["--rule"], ["--host"], ["--json=yes"], ["-h"],
        ["--until", "later"], ["--lines", "many"], ["--lines", "-1"], ["--file"],
    ])
    func badArgumentsAreUsageErrors(args: [String]) async {
        #expect(await HistoryCommand.run(args) == .usage)
    }

    @Test func readingAMissingJournalDirectoryOrFileIsAFailure() async {
        #expect(await HistoryCommand.run(["--directory", "/nonexistent/sensorwatch-journal"]) == .failure)
        #expect(
            await HistoryCommand.run(["--directory=/tmp", "--directory", "/nonexistent/sensorwatch-journal"])
                == .failure)
        #expect(await HistoryCommand.run(["--file", "/nonexistent/sensorwatch.journal"]) == .failure)
    }
}
