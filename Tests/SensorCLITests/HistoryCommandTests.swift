import Testing
@testable import SensorCLI

struct HistoryCommandTests {
    @Test(arguments: [
        ["--since"], ["--since", "soon"], ["--bogus"], ["--rule"], ["--host"], ["--json=yes"], ["-h"],
        ["--until", "later"], ["--lines", "many"], ["--lines", "-1"], ["--file"],
    ])
    func badArgumentsAreUsageErrors(args: [String]) async {
        #expect(await CLI.main(["history"] + args) == .usage)
    }

    @Test func readingAMissingJournalDirectoryOrFileIsAFailure() async {
        #expect(await CLI.main(["history", "--directory", "/nonexistent/sensorwatch-journal"]) == .failure)
        #expect(
            await CLI.main(["history", "--directory=/tmp", "--directory", "/nonexistent/sensorwatch-journal"])
                == .failure)
        #expect(await CLI.main(["history", "--file", "/nonexistent/sensorwatch.journal"]) == .failure)
    }
}
