@testable import SensorConfig
@testable import SensorCore
import SensorTestKit
import Testing

/// The `notify` list of the configuration (SPEC §17): every problem at its key path.
struct NotifyConfigTests {
    @Test(arguments: [
        ("{ notify: {} }", ["notify: expected an array, found an object"]),
        ("{ notify: [{}] }", ["notify[0]: needs a target: exec (a program and its arguments) or alertmanager (a URL)"]),
        (
            "{ notify: [{ exec: [] }] }",
            ["notify[0].exec: must name a program: [\"/path/to/program\", \"argument\", …]"]
        ),
        (
            "{ notify: [{ exec: [\"page-me\"] }] }",
            ["notify[0].exec[0]: must be an absolute path (the program is started without a shell or PATH search)"]
        ),
        ("{ notify: [{ exec: [\"/bin/true\", 3] }] }", ["notify[0].exec[1]: expected a string, found a number"]),
        (
            "{ notify: [{ alertmanager: \"127.0.0.1:9093\" }] }",
            ["notify[0].alertmanager: must be an http:// or https:// URL, e.g. \"http://127.0.0.1:9093\""]
        ),
        (
            "{ notify: [{ exec: [\"/bin/true\"], alertmanager: \"http://a\" }] }",
            ["notify[0]: has both exec and alertmanager; a target takes exactly one (write two targets)"]
        ),
        (
            "{ notify: [{ exec: [\"/bin/true\"], severity: [\"urgent\"] }] }",
            ["notify[0].severity[0]: unknown severity \"urgent\" (expected critical, warning, notice or info)"]
        ),
        (
            "{ notify: [{ exec: [\"/bin/true\"], severity: [] }] }",
            ["notify[0].severity: must list at least one severity (leave it out to take every severity)"]
        ),
        (
            "{ notify: [{ exec: [\"/bin/true\"], rule: \"cpu-[\" }] }",
            ["notify[0].rule: glob \"cpu-[\" has an unclosed ["]
        ),
        ("{ notify: [{ exec: [\"/bin/true\"], timeout: \"0s\" }] }", ["notify[0].timeout: must be longer than 0s"]),
        ("{ notify: [{ exec: [\"/bin/true\"], giveUp: \"0s\" }] }", ["notify[0].giveUp: must be longer than 0s"]),
        (
            "{ notify: [{ exec: [\"/bin/true\"], timout: \"5s\" }] }",
            ["notify[0].timout: unknown key (did you mean \"timeout\"?)"]
        ),
        (
            "{ notify: [{ exec: [\"/bin/true\"] }, { exec: [\"/bin/true\"], timeout: \"5s\" }] }",
            ["notify[1]: the same target is already defined by notify[0]"]
        ),
        // The message never repeats the value: it holds a password.
        (
            "{ notify: [{ alertmanager: \"http://am:pa/ss@h:9093\" }] }",
            [
                "notify[0].alertmanager: has an @ after the host: a user name or password holding /, ? or # must write it percent-encoded (%2F, %3F, %23)"
            ]
        ),
        // Only the password differs: one target (a password change keeps its cursor).
        (
            "{ notify: [{ alertmanager: \"http://am:one@h:9093\" }, { alertmanager: \"http://am:two@h:9093\" }] }",
            ["notify[1]: the same target is already defined by notify[0]"]
        ),
    ])
    func reportsEachProblemAtItsKeyPath(text: String, expected: [String]) {
        #expect(TemporaryDirectory.configErrors(of: text) == expected.map { "c.json5: " + $0 })
    }

    @Test func decodesBothKindsWithFiltersAndTheDefaultTimeout() throws {
        let files = TemporaryDirectory()
        let path = files.write(
            "c.json5",
            """
            { notify: [
              { exec: ["/usr/local/bin/page-me", "--urgent"], severity: ["critical", "warning"], timeout: "10s", giveUp: "2h" },
              { alertmanager: "http://127.0.0.1:9093/", rule: "cpu-*", sensor: "thermal:*", host: "rack?" },
            ] }
            """)
        let notify = try ConfigLoader.load(path: path).notify
        #expect(notify.count == 2)
        #expect(notify[0].kind == .exec(["/usr/local/bin/page-me", "--urgent"]))
        #expect(notify[0].filter.severities == [.critical, .warning])
        #expect(notify[0].timeout == .seconds(10))
        #expect(notify[1].kind == .alertmanager("http://127.0.0.1:9093"))
        #expect(notify[1].timeout == .seconds(30))
        #expect(notify[0].giveUp == .seconds(7200))
        #expect(notify[1].giveUp == .seconds(86_400))
        #expect(notify[1].filter.rule?.pattern == "cpu-*")
    }

    /// The key names the target in notify.json: the same definition is the same target
    /// across restarts, a changed filter is a new one; the timeout is not part of it.
    @Test func keyIsKindDestinationAndFiltersInAFixedOrder() throws {
        let a = NotifyTarget(
            kind: .exec(["/bin/page", "a b"]),
            filter: NotifyFilter(severities: [.warning, .critical], rule: try Glob("cpu-*")), timeout: .seconds(5))
        #expect(a.key == "exec \"/bin/page\" \"a b\" severity=critical,warning rule=cpu-*")
        var b = a
        b.timeout = .seconds(60)
        #expect(a.key == b.key)
        #expect(NotifyTarget(kind: .alertmanager("http://h:9093")).key == "alertmanager http://h:9093")
    }

    /// A URL's password is in neither the key (notify.json) nor the name (logs, `--test`);
    /// the key older versions wrote, with the password, is known so its state is taken over.
    @Test func keyAndNameMaskTheURLsPassword() {
        let target = NotifyTarget(kind: .alertmanager("http://am:s3cr%40t@127.0.0.1:9093"))
        #expect(target.key == "alertmanager http://am:***@127.0.0.1:9093")
        #expect(target.name == "alertmanager http://am:***@127.0.0.1:9093")
        #expect(target.keyWithPassword == "alertmanager http://am:s3cr%40t@127.0.0.1:9093")
        #expect(NotifyTarget(kind: .alertmanager("http://127.0.0.1:9093")).keyWithPassword == nil)
        #expect(NotifyTarget(kind: .exec(["/bin/true"])).keyWithPassword == nil)
    }
}
