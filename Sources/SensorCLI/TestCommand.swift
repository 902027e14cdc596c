#if canImport(Glibc)
import Glibc
#endif
import SensorRuntime
import SensorSimulation

/// `sensorwatch test`: rule tests, as `promtool test rules` gives Prometheus users (SPEC §18).
enum TestCommand {
    static let help = """
        usage: sensorwatch test FILE... [--junit PATH]

        Runs rule tests: each FILE names a configuration and holds tests, each a scenario
        (a file, or inline) with the events it must give and the alerts that must fire at
        given times. Each scenario runs through simulate's engine, exactly as
        `sensorwatch simulate --config C --scenario S` would. Prints PASS or FAIL per test
        (a failure with what it expected against what it got), then "N passed, M failed".
        A bad file's errors go to stderr as PATH: LOCATION: message; the other files
        still run.

        options:
          --junit PATH  also write JUnit XML there (one testsuite per file, one testcase
                        per test), for a CI system to show
          --help        show this help

        exit status: 0 every test passed, 1 a test failed, 78 a file is bad, 64 bad usage

        examples:
          sensorwatch test config/tests/*.json5
          sensorwatch test rules-test.json5 --junit build/sensorwatch-junit.xml
          sensorwatch simulate --config C --scenario S --json   # the events a test compares
        """

    @DaemonActor
    static func run(_ args: [String]) async throws(ExitCode) -> ExitCode {
        let options: Options = try CommandSupport.parse(args, valued: ["junit"], arguments: true, help: help)
        let files = options.arguments
        guard !files.isEmpty else {
            Output.stderr("sensorwatch: test needs at least one test file\n\n" + help)
            return .usage
        }
        let clock = ContinuousClock()
        var report = JUnitReport()
        var passed = 0, failed = 0, bad = false
        for path in files {
            var suite = JUnitReport.Suite(path: path)
            defer { report.suites.append(suite) }
            let file: RuleTestFile
            do {
                file = try RuleTestLoader.load(path: path)
            } catch {
                bad = true
                suite.errors = error.errors.map(\.description)
                for e in suite.errors { Output.stderr(e) }
                continue
            }
            if files.count > 1 { Output.stdout(path + ":") }
            for test in file.tests {
                let started = clock.now
                let result = await RuleTestRunner.run(test, configuration: file.configuration)
                let took = started.duration(to: clock.now)
                suite.results.append(
                    (result, Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18))
                Output.stdout(lines(result))
                if result.passed { passed += 1 } else { failed += 1 }
            }
        }
        Output.stdout("\(passed) passed, \(failed) failed")
        if let path = options["junit"] {
            do throws(SystemError) {
                try AtomicFileWriter(path: path).write(report.xml)
            } catch {
                Output.stderr("sensorwatch: \(path): cannot write the JUnit report: \(error.reason)")
                return .failure
            }
        }
        return bad ? .config : failed > 0 ? .failure : .success
    }

    /// `PASS name`, or `FAIL name` and each difference, indented.
    static func lines(_ result: RuleTestResult) -> String {
        guard !result.passed else { return "PASS " + result.name }
        var out = "FAIL " + result.name
        for difference in result.differences {
            for line in difference.split(separator: "\n", omittingEmptySubsequences: false) { out += "\n  " + line }
        }
        return out
    }
}
