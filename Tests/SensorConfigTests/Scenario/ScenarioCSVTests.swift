@testable import SensorConfig
@testable import SensorRuntime
import SensorTestKit
import Testing

struct ScenarioCSVTests {
    /// Loads a scenario whose one sensor reads `csv` and returns its samples or error lines.
    private func load(_ csv: String) -> (samples: [TimedValue], errors: [String]) {
        let files = TemporaryDirectory()
        files.write("baro.csv", csv)
        let path = files.write("s.json5", "{ sensors: [{ id: \"baro\", quantity: \"pressure\", csv: \"baro.csv\" }] }")
        do {
            let scenario = try ScenarioLoader.load(path: path)
            guard case .samples(let samples) = scenario.sensors[0].feed else { return ([], ["not explicit"]) }
            return (samples, [])
        } catch {
            return ([], files.lines(error))
        }
    }

    private func ns(_ n: Int64) -> Timestamp { Timestamp(nanoseconds: n) }

    @Test(arguments: [
        (
            "time,value\n0,1013\n0.1,1012.5\n",
            [
                TimedValue(time: .zero, value: 1013),
                TimedValue(time: Timestamp(nanoseconds: 100_000_000), value: 1012.5),
            ]
        ),
        (
            "0,1\n1,\n2,null\n3, 4 \n",
            [
                TimedValue(time: .zero, value: 1), TimedValue(time: .seconds(1), value: nil),
                TimedValue(time: .seconds(2), value: nil), TimedValue(time: .seconds(3), value: 4),
            ]
        ),
        (
            "# exported by hand\r\n Time , Value \r\n\r\n5,-2.5e1\r\n6,3\r\n",
            [
                TimedValue(time: .seconds(5), value: -25), TimedValue(time: .seconds(6), value: 3),
            ]
        ),
        ("", []),
    ])
    func readsRowsWithOptionalHeaderAndFailedReads(csv: String, expected: [TimedValue]) {
        let result = load(csv)
        #expect(result.errors == [])
        #expect(result.samples == expected)
    }

    @Test(arguments: [
        ("time,value\n0,1\nabc,2\n", "baro.csv: line 3, column 1: expected a time in seconds, found \"abc\""),
        ("0,1\n1,x\n", "baro.csv: line 2, column 3: expected a number, null or nothing, found \"x\""),
        ("0,1\n1, nan\n", "baro.csv: line 2, column 4: expected a number, null or nothing, found \"nan\""),
        ("0,1\n12\n", "baro.csv: line 2, column 3: expected 2 columns (time,value), found 1"),
        ("0,1\n1,2,3\n", "baro.csv: line 2, column 5: expected 2 columns (time,value), found 3"),
        ("0,1\n2,1\n1,1\n", "baro.csv: line 3, column 1: time 1 is before the previous row's 2.0"),
        ("-1,1\n", "baro.csv: line 1, column 1: time must be 0 or more"),
        ("0,1\n1e3,1\n", "baro.csv: line 2, column 1: expected a time in seconds, found \"1e3\""),
        (
            "value,time\n",
            "baro.csv: line 1, column 1: expected the header \"time,value\" or a time in seconds, found \"value\""
        ),
    ])
    func reportsProblemsAtLineAndColumnOfTheCSVFile(csv: String, expected: String) {
        #expect(load(csv).errors == [expected])
    }

    @Test func reportsEveryBadRow() {
        #expect(
            load("0,1\nx,1\n2,y\n").errors == [
                "baro.csv: line 2, column 1: expected a time in seconds, found \"x\"",
                "baro.csv: line 3, column 3: expected a number, null or nothing, found \"y\"",
            ])
    }

    /// SPEC §4: the scenario file and its key path; `(…)` is the absolute path tried (here
    /// shortened: the test's directory prefix is removed).
    @Test func missingCSVIsAnErrorAtTheKeyThatNamesIt() {
        let files = TemporaryDirectory()
        files.write(
            "s.json5",
            """
            { sensors: [{ id: "cpu", quantity: "temperature", samples: [[0, 40]] },
                        { id: "baro", quantity: "pressure", csv: "gone.csv" }] }
            """)
        #expect(
            files.scenarioErrors("s.json5") == [
                "s.json5: sensors[1].csv: cannot read \"gone.csv\" (gone.csv): No such file or directory"
            ])
    }

    /// A CSV that is there but is not text is the CSV's own problem, not the key's.
    @Test func aCSVThatIsNotTextIsAnErrorOfThatFile() {
        let files = TemporaryDirectory()
        files.write("s.json5", "{ sensors: [{ id: \"baro\", quantity: \"pressure\", csv: \"bin.csv\" }] }")
        files.write("bin.csv", bytes: [0x30, 0x2C, 0xFF, 0x0A])
        #expect(files.scenarioErrors("s.json5") == ["bin.csv: cannot read: not valid UTF-8 text"])
    }
}
