import Testing
@testable import SensorCLI

struct OptionsTests {
    @Test func anOptionGivenTwiceKeepsBothValuesAndTheSubscriptReadsTheLast() throws {
        let o = try Options(
            ["--directory", "a", "--json", "--directory=b", "--host", "web1"],
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

    /// A mistyped option names the one meant, as a mistyped config key does (issue 34).
    @Test func aTypoSaysWhichOptionWasMeant() {
        #expect(throws: Options.UsageError(description: "unknown option '--confg' (did you mean --config?)")) {
            try Options(["--confg", "c.json5"], valued: ["config", "plot"], flags: ["json"])
        }
        #expect(throws: Options.UsageError(description: "unknown option '--verbose'")) {
            try Options(["--verbose"], valued: ["config"], flags: ["json"])
        }
    }

    /// `--plot x.png` would write SVG into a .png: refused as bad usage (issue 34).
    @Test func aPlotNotNamedSVGIsBadUsage() async {
        #expect(await CLI.main(["simulate", "--config", "/nonexistent.json5", "--plot", "x.png"]) == .usage)
    }
}
