public import SensorRuntime
import SensorCore
import SensorConfig

/// Reads and validates a rule-test file (SPEC §18), the configuration it names and every
/// scenario it names or holds.
public enum RuleTestLoader {
    private static let eventKeys =
        [
            "time", "event", "rule", "sensor", "severity", "value", "threshold", "predicted", "limit",
        ] + RuleAnnotations.names

    /// Loads `path`; `config` and scenario paths resolve against its directory.
    ///
    /// - Throws: ``ConfigErrors`` with every problem found: those of the test file (and its
    ///   inline scenarios) at their key paths, then those of the configuration and of each
    ///   scenario file, reported against those files.
    public static func load(path: String) throws(ConfigErrors) -> RuleTestFile {
        let diagnostics = ConfigDiagnostics(file: path)
        guard let root = JSON5Document.load(path, diagnostics: diagnostics),
            let top = root.object(keys: ["config", "tests"])
        else { throw ConfigErrors(diagnostics.errors) }
        let directory = ConfigPath.directory(of: path)
        var otherErrors: [ConfigError] = []

        var configuration: Configuration?
        if let file = top.required("config")?.namedFile(against: directory) {
            do {
                configuration = try ConfigLoader.load(contents: file.bytes, path: file.path)
            } catch {
                otherErrors += error.errors
            }
        }

        var tests: [RuleTest] = []
        var firstByName: [String: String] = [:]
        if let node = top.required("tests"), let elements = node.array() {
            if elements.isEmpty { node.report("a test file needs at least one test") }
            for element in elements {
                guard let test = test(element, directory: directory, otherErrors: &otherErrors) else { continue }
                if let first = firstByName[test.name] {
                    element.diagnostics.report(
                        element.path(of: "name"), "duplicate test name \"\(test.name)\" (first used by \(first))")
                } else {
                    firstByName[test.name] = element.path
                }
                tests.append(test)
            }
        }
        let errors = diagnostics.errors + otherErrors
        guard errors.isEmpty, let configuration else { throw ConfigErrors(errors) }
        return RuleTestFile(path: path, configuration: configuration, tests: tests)
    }

    private static func test(_ node: ConfigNode, directory: String, otherErrors: inout [ConfigError]) -> RuleTest? {
        guard let object = node.object(keys: ["name", "scenario", "events", "firing"]) else { return nil }
        var name = object.required("name")?.string()
        if let text = name, text.allSatisfy({ $0 == " " }) {
            object["name"]?.report("must not be empty")
            name = nil
        }
        var scenario: Scenario?
        if let scenarioNode = object.required("scenario") {
            if case .object = scenarioNode.value {
                scenario = ScenarioLoader.decode(scenarioNode, directory: directory, csvErrors: &otherErrors)
            } else if case .string = scenarioNode.value {
                if let file = scenarioNode.namedFile(against: directory) {
                    do {
                        scenario = try ScenarioLoader.load(contents: file.bytes, path: file.path)
                    } catch {
                        otherErrors += error.errors
                    }
                }
            } else {
                scenarioNode.report(
                    "expected a scenario file's name or a scenario object, found \(scenarioNode.value.kindDescription)")
            }
        }
        if !object.has("events") && !object.has("firing") {
            node.report("a test needs events, firing, or both (what the scenario must give)")
        }
        var valid = true
        var events: [ExpectedEvent]?
        if let eventsNode = object["events"] {
            let elements = eventsNode.array()
            let decoded = elements?.map(event) ?? []
            valid = elements != nil && !decoded.contains { $0 == nil }
            events = decoded.compactMap { $0 }
        }
        var firing: [FiringCheck] = []
        if let firingNode = object["firing"] {
            let elements = firingNode.array()
            let decoded = elements?.map(firingCheck) ?? []
            valid = valid && elements != nil && !decoded.contains { $0 == nil }
            firing = decoded.compactMap { $0 }
        }
        guard valid, let name, let scenario else { return nil }
        return RuleTest(name: name, scenario: scenario, events: events, firing: firing)
    }

    private static func event(_ node: ConfigNode) -> ExpectedEvent? {
        guard let object = node.object(keys: eventKeys) else { return nil }
        let time = object.required("time").flatMap(seconds)
        let kind: EventKind? = object.required("event")?.choice("event")
        let rule = object.required("rule")?.string()
        let sensor = object.required("sensor")?.string()
        var valid = true
        var severity: Severity?
        if let n = object["severity"] {
            severity = n.choice("severity")
            valid = severity != nil
        }
        func nullable(_ key: String) -> Double?? {
            guard let n = object[key] else { return nil }
            if n.value == .null { return .some(nil) }
            guard let v = n.number() else {
                valid = false
                return nil
            }
            return .some(v)
        }
        let value = nullable("value"), predicted = nullable("predicted")
        var limit: String??
        if let n = object["limit"] {
            if n.value == .null {
                limit = .some(nil)
            } else if let name = n.string() {
                limit = name
            } else {
                valid = false
            }
        }
        var threshold: Double?
        if let n = object["threshold"] {
            threshold = n.number()
            valid = valid && threshold != nil
        }
        var annotations: [String: String?] = [:]
        for name in RuleAnnotations.names {
            guard let n = object[name] else { continue }
            if n.value == .null {
                annotations[name] = .some(nil)
            } else if let text = n.string() {
                annotations[name] = text
            } else {
                valid = false
            }
        }
        guard valid, let time, let kind, let rule, let sensor else { return nil }
        return ExpectedEvent(
            time: time, kind: kind, rule: rule, sensor: sensor, severity: severity, value: value,
            threshold: threshold, predicted: predicted, limit: limit, annotations: annotations)
    }

    /// A time in seconds: a number (as `simulate --json` prints it) or a duration string.
    private static func seconds(_ node: ConfigNode) -> Double? {
        if case .string = node.value {
            return node.duration(positive: false).map { Timestamp(nanoseconds: $0.nanoseconds).seconds }
        }
        return node.number(atLeastZero: false)
    }

    private static func firingCheck(_ node: ConfigNode) -> FiringCheck? {
        guard let object = node.object(keys: ["at", "alerts"]) else { return nil }
        let at = object.required("at")?.duration(positive: false)
        var alerts: [AlertKey]? = []
        if let elements = object.required("alerts")?.array() {
            let decoded = elements.map { element -> AlertKey? in
                guard let pair = element.object(keys: ["rule", "sensor"]) else { return nil }
                let rule = pair.required("rule")?.string(), sensor = pair.required("sensor")?.string()
                guard let rule, let sensor else { return nil }
                return AlertKey(rule: rule, sensor: SensorID(sensor))
            }
            alerts = decoded.contains { $0 == nil } ? nil : decoded.compactMap { $0 }
        } else {
            alerts = nil
        }
        guard let at, let alerts else { return nil }
        return FiringCheck(at: Timestamp(nanoseconds: at.nanoseconds), alerts: alerts)
    }
}
