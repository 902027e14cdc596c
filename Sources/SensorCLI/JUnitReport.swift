import SensorPlot
import SensorRuntime
import SensorSimulation

/// The JUnit XML of a `sensorwatch test` run (SPEC §18): one `testsuite` per file, one
/// `testcase` per test, a `failure` element holding the differences. A file that could not
/// be loaded is a suite with one `testcase` holding an `error` element with its errors, so
/// a CI page shows it rather than a run that lost a file.
struct JUnitReport {
    /// One file's outcome: its tests' results and seconds each, or the errors that kept it
    /// from running.
    struct Suite {
        var path: String
        var results: [(result: RuleTestResult, seconds: Double)] = []
        var errors: [String] = []
    }

    var suites: [Suite] = []

    /// The whole document, ending in a newline.
    var xml: String {
        let tests = suites.reduce(0) { $0 + max($1.results.count, $1.errors.isEmpty ? 0 : 1) }
        let failures = suites.reduce(0) { $0 + $1.results.filter { !$0.result.passed }.count }
        let errors = suites.filter { !$0.errors.isEmpty }.count
        let total = suites.reduce(0.0) { $0 + $1.results.reduce(0.0) { $0 + $1.seconds } }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out +=
            "<testsuites name=\"sensorwatch test\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(Self.seconds(total))\">\n"
        for suite in suites {
            let name = Self.escape(suite.path)
            let failed = suite.results.filter { !$0.result.passed }.count
            let time = suite.results.reduce(0.0) { $0 + $1.seconds }
            if !suite.errors.isEmpty {
                out += "  <testsuite name=\"\(name)\" tests=\"1\" failures=\"0\" errors=\"1\" time=\"0\">\n"
                out += "    <testcase classname=\"\(name)\" name=\"load \(name)\" time=\"0\">\n"
                out += "      <error message=\"the test file is bad\" type=\"configuration\">"
                out += Self.escape(suite.errors.joined(separator: "\n")) + "</error>\n"
                out += "    </testcase>\n  </testsuite>\n"
                continue
            }
            out +=
                "  <testsuite name=\"\(name)\" tests=\"\(suite.results.count)\" failures=\"\(failed)\" errors=\"0\" time=\"\(Self.seconds(time))\">\n"
            for (result, seconds) in suite.results {
                out +=
                    "    <testcase classname=\"\(name)\" name=\"\(Self.escape(result.name))\" time=\"\(Self.seconds(seconds))\""
                if result.passed {
                    out += "/>\n"
                    continue
                }
                // The heading of each difference (`event 2`, `firing at 40s`): what the CI page lists.
                let places = result.differences.map { String($0.prefix { $0 != "\n" }.dropLast()) }
                let message = "differs at " + places.joined(separator: ", ")
                out += ">\n      <failure message=\"\(Self.escape(message))\" type=\"difference\">"
                out += Self.escape(result.differences.joined(separator: "\n")) + "</failure>\n    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    /// Seconds to the millisecond, with their decimal point (`0.0`, `1.25`).
    private static func seconds(_ s: Double) -> String {
        NumberText.pointed(NumberText.rounded(s, places: 3))
    }

    /// XML text (the escaping the SVG plot uses).
    private static func escape(_ s: String) -> String { SVGWriter.escape(s) }
}
