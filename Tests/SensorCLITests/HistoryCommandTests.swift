import Testing
@testable import SensorCLI

struct HistoryCommandTests {
    @Test(arguments: [["--since"], ["--since", "soon"], ["--bogus"], ["--rule"]])
    func badArgumentsAreUsageErrors(args: [String]) async {
        #expect(await HistoryCommand.run(args) == .usage)
    }

    @Test func readingAMissingJournalDirectoryIsAFailure() async {
        #expect(await HistoryCommand.run(["--directory", "/nonexistent/sensorwatch-journal"]) == .failure)
    }
}
