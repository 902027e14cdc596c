#if canImport(Glibc)
import Glibc
#endif
@testable import SensorConfig
@testable import SensorCore
import SensorTestKit
import Testing
@testable import SensorRuntime

struct ConfigLoaderTests {
    private func errors(_ text: String) -> [String] { TemporaryDirectory.configErrors(of: text) }

    @Test(arguments: [
        ("{ interval: 5 }", "interval: expected a duration such as \"10s\", found a number"),
        ("{ interval: \"0s\" }", "interval: must be longer than 0s"),
        (
            "{ interval: \"1ns\" }",
            "interval: must be at least 10ms (a shorter poll interval would keep the daemon spinning)"
        ),
        (
            "{ interval: \"9ms\" }",
            "interval: must be at least 10ms (a shorter poll interval would keep the daemon spinning)"
        ),
        ("{ intervall: \"1s\" }", "intervall: unknown key (did you mean \"interval\"?)"),
        ("{ colour: \"red\" }", "colour: unknown key"),
        ("{ sources: {} }", "sources: expected an array, found an object"),
        ("{ sources: [{}] }", "sources[0].type: required key is missing"),
        ("{ sources: [\"thermal\"] }", "sources[0]: expected an object, found a string"),
        (
            "{ sources: [{ type: \"thermals\" }] }",
            "sources[0].type: unknown source type \"thermals\" (expected thermal, hwmon, iio, simulated or ipmi)"
        ),
        ("{ sources: [{ type: \"simulated\" }] }", "sources[0].scenario: required key is missing"),
        (
            "{ sources: [{ type: \"thermal\", scenario: \"s.json5\" }] }",
            "sources[0].scenario: only simulated sources take a scenario"
        ),
        (
            "{ sources: [{ type: \"hwmon\", include: [\"hwmon:[ab\"] }] }",
            "sources[0].include[0]: glob \"hwmon:[ab\" has an unclosed ["
        ),
        (
            "{ sources: [{ type: \"hwmon\", exclude: [\"a\", 3] }] }",
            "sources[0].exclude[1]: expected a string, found a number"
        ),
        ("{ sources: [{ type: \"hwmon\", interval: \"0s\" }] }", "sources[0].interval: must be longer than 0s"),
        (
            "{ sources: [{ type: \"thermal\", interval: \"1ns\" }] }",
            "sources[0].interval: must be at least 10ms (a shorter poll interval would keep the daemon spinning)"
        ),
        ("{ sources: [{ type: \"iio\", root: 7 }] }", "sources[0].root: expected a string, found a number"),
        (
            "{ sources: [{ type: \"hwmon\", plausible: { min: 100, max: 0 } }] }",
            "sources[0].plausible: min must be below max"
        ),
        (
            "{ sources: [{ type: \"hwmon\", plausible: { mux: 1 } }] }",
            "sources[0].plausible.mux: unknown key (did you mean \"max\"?)"
        ),
        (
            "{ sources: [{ type: \"hwmon\", wake: \"yes\" }] }",
            "sources[0].wake: expected true or false, found a string"
        ),
        ("{ sources: [{ type: \"iio\", roots: \"/x\" }] }", "sources[0].roots: unknown key (did you mean \"root\"?)"),
        ("{ rules: [\"r\"] }", "rules[0]: expected an object, found a string"),
        ("{ rules: [{ sensor: \"*\", above: 1 }] }", "rules[0].name: required key is missing"),
        ("{ rules: [{ name: \"\", sensor: \"*\", above: 1 }] }", "rules[0].name: must not be empty"),
        (
            "{ rules: [{ name: \"a\", above: 80 }] }",
            "rules[0]: needs \"sensor\" or \"quantity\" (or both) to select sensors"
        ),
        ("{ rules: [{ name: \"a\", sensor: \"x[\", above: 80 }] }", "rules[0].sensor: glob \"x[\" has an unclosed ["),
        (
            "{ rules: [{ name: \"a\", quantity: \"temp\", above: 80 }] }",
            "rules[0].quantity: unknown quantity \"temp\" (expected temperature, humidity, pressure, fan, voltage, power, current or state)"
        ),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\" }] }",
            "rules[0]: needs one condition: above, below, rise, fall, predict, stale or alarm"
        ),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\", above: 80, below: 10 }] }",
            "rules[0]: has more than one condition (above, below); a rule takes exactly one"
        ),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\", above: \"80\" }] }",
            "rules[0].above: unknown limit \"80\" (expected a number, or max, crit, emergency, hot, passive, active or cap)"
        ),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\", above: NaN }] }",
            "rules[0].above: expected a finite number, found NaN"
        ),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\", below: Infinity }] }",
            "rules[0].below: expected a finite number, found Infinity"
        ),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\", above: -Infinity }] }",
            "rules[0].above: expected a finite number, found -Infinity"
        ),
        ("{ rules: [{ name: \"a\", sensor: \"*\", above: 1e999 }] }", "rules[0].above: number out of range"),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\", above: 80, hysteresis: -1 }] }",
            "rules[0].hysteresis: must be 0 or more"
        ),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\", above: 80, hysteresis: NaN }] }",
            "rules[0].hysteresis: expected a finite number, found NaN"
        ),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\", stale: \"5s\", hysteresis: 2 }] }",
            "rules[0].hysteresis: applies only to above, below and predict"
        ),
        ("{ rules: [{ name: \"a\", sensor: \"*\", stale: \"0s\" }] }", "rules[0].stale: must be longer than 0s"),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\", stale: 30 }] }",
            "rules[0].stale: expected a duration such as \"10s\", found a number"
        ),
        ("{ rules: [{ name: \"a\", sensor: \"*\", rise: 3 }] }", "rules[0].rise: expected an object, found a number"),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\", rise: { by: 0, within: \"1m\" } }] }",
            "rules[0].rise.by: must be greater than 0"
        ),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\", rise: { by: Infinity, within: \"1m\" } }] }",
            "rules[0].rise.by: expected a finite number, found Infinity"
        ),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\", fall: { by: 3, within: \"0s\" } }] }",
            "rules[0].fall.within: must be longer than 0s"
        ),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\", fall: { by: 3 } }] }",
            "rules[0].fall.within: required key is missing"
        ),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\", fall: { by: 3, within: \"1h\", over: 2 } }] }",
            "rules[0].fall.over: unknown key"
        ),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\", above: 1, for: \"10 s\" }] }",
            "rules[0].for: invalid duration \"10 s\": unknown unit \" s\" (use ns, us, ms, s, m, h or d)"
        ),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\", above: 1, clearFor: \"-1s\" }] }",
            "rules[0].clearFor: invalid duration \"-1s\": must not be negative"
        ),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\", above: 1, repeat: \"0s\" }] }",
            "rules[0].repeat: must be longer than 0s"
        ),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\", above: 1, severity: \"warn\" }] }",
            "rules[0].severity: unknown severity \"warn\" (expected critical, warning, notice or info)"
        ),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\", above: 1, severty: \"info\" }] }",
            "rules[0].severty: unknown key (did you mean \"severity\"?)"
        ),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\", above: 1 }, { name: \"a\", sensor: \"*\", below: 1 }] }",
            "rules[1].name: duplicate rule name \"a\" (first used by rules[0])"
        ),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\", above: 1, summary: 3 }] }",
            "rules[0].summary: expected a string, found a number"
        ),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\", above: 1, description: \"\" }] }",
            "rules[0].description: must not be empty (leave the key out instead)"
        ),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\", above: 1, summary: \"two\\nlines\" }] }",
            "rules[0].summary: must not contain the control character U+000A (one line, no newline)"
        ),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\", above: 1, description: \"bell\\u0007\" }] }",
            "rules[0].description: must not contain the control character U+0007"
        ),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\", above: 1, runbook: \"docs/limits.md\" }] }",
            "rules[0].runbook: expected a URL such as \"https://wiki.example/runbooks/cpu-hot\", found \"docs/limits.md\""
        ),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\", above: 1, runbook: \"https://wiki.example/a b\" }] }",
            "rules[0].runbook: a URL must not contain spaces (write %20)"
        ),
        (
            "{ rules: [{ name: \"a\", sensor: \"*\", above: 1, runbok: \"https://x\" }] }",
            "rules[0].runbok: unknown key (did you mean \"runbook\"?)"
        ),
        ("[1]", "expected an object, found an array"),
    ])
    func reportsEachProblemAtItsKeyPath(text: String, expected: String) {
        #expect(errors(text) == ["c.json5: " + expected])
    }

    @Test func typoInAConditionIsTwoErrorsNotASilentRule() {
        #expect(
            errors("{ rules: [{ name: \"a\", sensor: \"*\", abov: 80 }] }") == [
                "c.json5: rules[0].abov: unknown key (did you mean \"above\"?)",
                "c.json5: rules[0]: needs one condition: above, below, rise, fall, predict, stale or alarm",
            ])
    }

    @Test func reportsEveryErrorInFileOrderNotJustTheFirst() {
        let text = """
            {
              interval: "fast",
              sources: [ { type: "hwmon", colour: 1 }, { type: "nope" } ],
              rules: [
                { name: "a", sensor: "*", above: NaN },
                { name: "b", quantity: "humidity", below: 20, hysteresis: -2, severity: "loud" },
              ],
            }
            """
        #expect(
            errors(text) == [
                "c.json5: interval: invalid duration \"fast\": expected a number, found \"f\"",
                "c.json5: sources[0].colour: unknown key",
                "c.json5: sources[1].type: unknown source type \"nope\" (expected thermal, hwmon, iio, simulated or ipmi)",
                "c.json5: rules[0].above: expected a finite number, found NaN",
                "c.json5: rules[1].hysteresis: must be 0 or more",
                "c.json5: rules[1].severity: unknown severity \"loud\" (expected critical, warning, notice or info)",
            ])
    }

    @Test func missingFileIsAFileError() {
        let files = TemporaryDirectory()
        #expect(files.configErrors("nope.json5") == ["nope.json5: cannot read: No such file or directory"])
    }

    /// A reload must never block on what sits at the configuration's path (a FIFO without a
    /// writer used to hang the daemon's main actor) or read a device forever; a dangling
    /// link says where it points.
    @Test func specialFilesAreRefusedWithoutBlocking() {
        let files = TemporaryDirectory()
        let fifo = files.path("fifo.json5")
        #expect(mkfifo(fifo, 0o644) == 0)
        defer { unlink(fifo) }
        #expect(files.configErrors("fifo.json5") == ["fifo.json5: cannot read: not a regular file (a FIFO)"])
        #expect(loadErrors(files.root) == [files.root + ": cannot read: Is a directory"])
        let link = files.path("link.json5")
        #expect(symlink("gone.json5", link) == 0)
        defer { unlink(link) }
        #expect(
            files.configErrors("link.json5")
                == ["link.json5: cannot read: No such file or directory (a symbolic link to gone.json5)"])
        #expect(loadErrors("/dev/zero") == ["/dev/zero: cannot read: not a regular file (a device)"])
    }

    private func loadErrors(_ path: String) -> [String] {
        do {
            _ = try ConfigLoader.load(path: path)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    @Test func aPollIntervalOfExactlyTenMillisecondsIsAccepted() throws {
        let files = TemporaryDirectory()
        let path = files.write("c.json5", #"{ interval: "10ms", sources: [{ type: "thermal", interval: "10ms" }] }"#)
        let config = try ConfigLoader.load(path: path)
        #expect(config.interval == .milliseconds(10))
        #expect(config.sources.map(\.interval) == [.milliseconds(10)])
    }

    /// SPEC §21: a rule's annotations are kept as written; a description may span lines.
    @Test func decodesARulesAnnotations() throws {
        let files = TemporaryDirectory()
        let path = files.write(
            "c.json5",
            #"""
            { rules: [
              { name: "a", sensor: "*", above: 1, summary: "CPU hot", description: "Clean the fan.\nThen reseat.",
                runbook: "https://wiki.example/cpu-hot" },
              { name: "b", sensor: "*", above: 1, runbook: "file:///usr/share/doc/sensorwatch/limits.md" },
            ] }
            """#)
        let rules = try ConfigLoader.load(path: path).rules
        #expect(
            rules.map(\.annotations) == [
                RuleAnnotations(
                    summary: "CPU hot", description: "Clean the fan.\nThen reseat.",
                    runbook: "https://wiki.example/cpu-hot"),
                RuleAnnotations(runbook: "file:///usr/share/doc/sensorwatch/limits.md"),
            ])
    }

    @Test func decodesEveryRuleFieldIntoTheModel() throws {
        let files = TemporaryDirectory()
        let path = files.write(
            "c.json5",
            """
            // comments, unquoted keys, single quotes and trailing commas are JSON5
            {
              interval: '2s',
              rules: [
                { name: "cpu-hot", sensor: "thermal:*", above: 80, hysteresis: 5, for: "10s", clearFor: "5s",
                  repeat: "1h", severity: "critical" },
                { name: "dry", quantity: "humidity", below: 25 },
                { name: "storm", sensor: "sim:*", quantity: "pressure", fall: { by: 3, within: "3h" }, severity: "notice" },
                { name: "heating", sensor: "sim:*", rise: { by: 10.5, within: "1m" }, severity: "info" },
                { name: "silent", sensor: "*", stale: "30s" },
              ],
            }
            """)
        let config = try ConfigLoader.load(path: path)
        #expect(config.path == path)
        #expect(config.interval == .seconds(2))
        #expect(config.sources.isEmpty)
        #expect(
            config.rules == [
                Rule(
                    name: "cpu-hot", selector: SensorSelector(sensor: try Glob("thermal:*")),
                    condition: .above(80, hysteresis: 5), holdFor: .seconds(10), clearFor: .seconds(5),
                    repeatEvery: .seconds(3600), severity: .critical),
                Rule(name: "dry", selector: SensorSelector(quantity: .humidity), condition: .below(25, hysteresis: 0)),
                Rule(
                    name: "storm", selector: SensorSelector(sensor: try Glob("sim:*"), quantity: .pressure),
                    condition: .fall(by: 3, within: .seconds(3 * 3600)), severity: .notice),
                Rule(
                    name: "heating", selector: SensorSelector(sensor: try Glob("sim:*")),
                    condition: .rise(by: 10.5, within: .seconds(60)), severity: .info),
                Rule(name: "silent", selector: SensorSelector(sensor: try Glob("*")), condition: .stale(.seconds(30))),
            ])
    }

    @Test func sourcesGetDefaultsAndResolveRelativePathsAgainstTheConfigDirectory() throws {
        let files = TemporaryDirectory()
        files.write("scen/s.json5", "{ sensors: [{ id: \"cpu\", quantity: \"temperature\", samples: [[0, 40]] }] }")
        let path = files.write(
            "etc/c.json5",
            """
            {
              interval: "500ms",
              sources: [
                { type: "thermal" },
                { type: "hwmon", root: "fixtures/./hwmon", interval: "2s", include: ["hwmon:*"], exclude: ["*/temp9"] },
                { type: "iio", root: "/abs/iio" },
                { type: "simulated", scenario: "../scen/s.json5" },
              ],
            }
            """)
        let config = try ConfigLoader.load(path: path)
        let s = config.sources
        #expect(s.map(\.kind) == [.thermal, .hwmon, .iio, .simulated])
        #expect(s.map(\.interval) == [.milliseconds(500), .seconds(2), .milliseconds(500), .milliseconds(500)])
        #expect(s[0].root == "/sys/class/thermal")
        #expect(s[1].root == files.path("etc/fixtures/hwmon"))
        #expect(s[1].include == [try Glob("hwmon:*")])
        #expect(s[1].exclude == [try Glob("*/temp9")])
        #expect(s[2].root == "/abs/iio")
        #expect(s[3].scenarioPath == files.path("scen/s.json5"))
        #expect(s[3].scenario?.sensors.map(\.id) == ["cpu"])
    }

    @Test func scenarioErrorsAreReportedAgainstTheScenarioFileAfterTheConfigErrors() {
        let files = TemporaryDirectory()
        files.write("scen/s.json5", "{ sensors: [{ id: \"cpu\", samples: [[0, 40]] }] }")
        files.write(
            "c.json5",
            """
            { sources: [{ type: "simulated", scenario: "scen/s.json5" }], rules: [{ name: "x", sensor: "*" }] }
            """)
        #expect(
            files.configErrors("c.json5") == [
                "c.json5: rules[0]: needs one condition: above, below, rise, fall, predict, stale or alarm",
                "scen/s.json5: sensors[0].quantity: required key is missing",
            ])
    }

    /// SPEC §4: the config file and key, the name as written, and the absolute path tried.
    @Test func missingScenarioFileIsAnErrorAtTheKeyThatNamesIt() {
        let files = TemporaryDirectory()
        files.write(
            "c.json5",
            """
            { sources: [{ type: "thermal" }, { type: "simulated", scenario: "sub/../gone.json5" }] }
            """)
        #expect(
            loadErrors(files.path("c.json5")) == [
                files.path("c.json5") + ": sources[1].scenario: cannot read \"sub/../gone.json5\" ("
                    + files.path("gone.json5") + "): No such file or directory"
            ])
    }

    @Test func aScenarioThatIsNotTextIsAnErrorOfThatFile() {
        let files = TemporaryDirectory()
        files.write("bin.json5", bytes: [0x7B, 0xFF, 0x7D])
        files.write("c.json5", "{ sources: [{ type: \"simulated\", scenario: \"bin.json5\" }] }")
        #expect(files.configErrors("c.json5") == ["bin.json5: cannot read: not valid UTF-8 text"])
    }

    @Test func anUnreadableScenarioIsReportedWhereItIsNamed() {
        let files = TemporaryDirectory()
        files.mkdir("dir.json5")
        files.write("c.json5", "{ sources: [{ type: \"simulated\", scenario: \"dir.json5\" }] }")
        #expect(
            files.configErrors("c.json5") == [
                "c.json5: sources[0].scenario: cannot read \"dir.json5\" (dir.json5): Is a directory"
            ])
    }

    @Test func twoSimulatedSensorsWithOneIdAcrossSourcesAreAnError() {
        let files = TemporaryDirectory()
        files.write("a.json5", "{ sensors: [{ id: \"cpu\", quantity: \"temperature\", samples: [[0, 40]] }] }")
        files.write(
            "b.json5",
            """
            { sensors: [{ id: "fan", quantity: "temperature", samples: [[0, 1]] },
                        { id: "cpu", quantity: "temperature", samples: [[0, 2]] }] }
            """)
        files.write(
            "c.json5",
            """
            { sources: [{ type: "simulated", scenario: "a.json5" }, { type: "simulated", scenario: "b.json5" }] }
            """)
        #expect(
            files.configErrors("c.json5") == [
                "c.json5: sources[1].scenario: simulated sensor \"sim:cpu\" is already defined by sources[0]"
            ])
    }
}
