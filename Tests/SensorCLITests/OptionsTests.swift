import Testing
@testable import SensorCLI

struct OptionsTests {
    @Test func anOptionGivenTwiceKeepsBothValuesAndTheSubscriptReadsTheLast() throws {
        let o = try Options(["--directory", "a", "--json", "--directory=b", "--host", "web1"],
            valued: ["directory", "host"], flags: ["json"])
        #expect(o.all("directory") == ["a", "b"])
        #expect(o["directory"] == "b")
        #expect(o.all("host") == ["web1"])
        #expect(o.all("since").isEmpty && o["since"] == nil)
        #expect(o.has("json"))
    }

    @Test(arguments: [["--host"], ["--json=1"], ["web1"], ["--nope"]])
    func malformedArgumentsAreUsageErrors(args: [String]) {
        #expect(throws: Options.UsageError.self) { try Options(args, valued: ["host"], flags: ["json"]) }
    }
}
