public import SensorRuntime
import SensorCore

/// Reads and validates a configuration file and every file it names (SPEC §3).
public enum ConfigLoader {
    /// Loads `path`, resolving relative paths against its directory, and loads every
    /// scenario it names.
    ///
    /// Unknown keys, wrong types, missing required keys and invalid values are all errors.
    /// Resolved `root` and `scenarioPath` values are absolute.
    ///
    /// - Throws: ``ConfigErrors`` with every problem found, not just the first: those of the
    ///   configuration file in the order they were found, then those of each scenario (and
    ///   CSV) file it names, reported against that file.
    public static func load(path: String) throws(ConfigErrors) -> Configuration {
        try JSON5Document.load(path: path, decode)
    }

    /// Like ``load(path:)`` for the bytes of a configuration file already in memory.
    ///
    /// `path` names the file in errors and is what relative paths resolve against; the
    /// scenario (and CSV) files the configuration names are still read from disk.
    public static func load(contents: [UInt8], path: String) throws(ConfigErrors) -> Configuration {
        try JSON5Document.load(contents: contents, path: path, decode)
    }

    private static func decode(
        _ root: ConfigNode?, _ path: String, _ diagnostics: ConfigDiagnostics
    ) throws(ConfigErrors) -> Configuration {
        guard let root,
            let top = root.object(keys: [
                "interval", "sources", "rules", "derived", "metrics", "statusFile", "notify", "trust", "liveSocket",
                "mqtt",
            ])
        else { throw ConfigErrors(diagnostics.errors) }

        let interval = top["interval"].flatMap { $0.pollInterval() } ?? .seconds(1)
        var named = NamedFiles(configDirectory: ConfigPath.directory(of: path))
        let sources = (top["sources"]?.array() ?? []).flatMap {
            source($0, defaultInterval: interval, named: &named)
        }
        let rules = RuleDecoder.rules(top["rules"])
        let derived = DerivedDecoder.derived(top["derived"])
        let metrics = top["metrics"].flatMap { self.metrics($0, configDirectory: named.configDirectory) }
        var statusFile: String?
        if let node = top["statusFile"], let text = node.string() {
            if text.isEmpty || text.hasSuffix("/") {
                node.report("must name a file (where `run` keeps its status)")
            } else {
                statusFile = ConfigPath.absolute(ConfigPath.resolve(text, against: named.configDirectory))
            }
        }
        let notify = NotifyDecoder.targets(top["notify"])
        let trust = NotifyDecoder.trust(top["trust"])
        let liveSocket = top["liveSocket"].map(liveSocket) ?? .runtimeDirectory
        let mqtt = MQTTDecoder.section(top["mqtt"], configDirectory: named.configDirectory)
        let errors = diagnostics.errors + named.errors
        guard errors.isEmpty else { throw ConfigErrors(errors) }
        var configuration = Configuration(
            path: path, interval: interval, sources: sources, rules: rules, derived: derived, metrics: metrics,
            statusFile: statusFile, notify: notify, trust: trust)
        configuration.liveSocket = liveSocket
        configuration.mqtt = mqtt
        return configuration
    }

    /// `liveSocket` (SPEC §22): an absolute path of a file, or `false` for no stream.
    private static func liveSocket(_ node: ConfigNode) -> LiveSocketSetting {
        if case .bool(let on) = node.value {
            if !on { return .off }
            node.report(
                "must be a path or false (true is the default: live.sock in the runtime directory; leave the key out)")
            return .runtimeDirectory
        }
        guard case .string = node.value else {
            node.report("expected an absolute path or false, found \(node.value.kindDescription)")
            return .runtimeDirectory
        }
        guard let text = node.string() else { return .runtimeDirectory }
        // A Unix socket's path holds at most 107 bytes (sockaddr_un).
        if !text.hasPrefix("/") || text.hasSuffix("/") {
            node.report("must be an absolute path of a file (where `run` listens for watch, top and mqtt), or false")
        } else if text.utf8.count > 107 {
            node.report("is \(text.utf8.count) bytes long; a Unix socket's path may have at most 107")
        } else {
            return .path(text)
        }
        return .runtimeDirectory
    }

    /// What loading the files a configuration names has found so far.
    private struct NamedFiles {
        let configDirectory: String
        /// Errors inside named files, reported against those files.
        var errors: [ConfigError] = []
        /// Simulated sensor ids seen, and the path of the source that defined each.
        var simulatedIDs: [String: String] = [:]
    }

    /// One source entry: one configuration, or one per BMC of an `ipmi` source's `hosts`.
    private static func source(
        _ node: ConfigNode, defaultInterval: Duration, named: inout NamedFiles
    ) -> [SourceConfiguration] {
        guard
            let object = node.object(
                keys: ["type", "interval", "root", "include", "exclude", "scenario", "plausible", "wake"]
                    + IPMIDecoder.keys)
        else {
            return []
        }
        let kind: SourceKind? = object.required("type")?.choice("source type")
        // A BMC is polled every 10 s unless the source says otherwise (SPEC §23): each read is
        // a round trip to it, not a pread.
        let interval = object["interval"].map { $0.pollInterval() } ?? (kind == .ipmi ? .seconds(10) : defaultInterval)
        var bmcs: [IPMISourceSettings]?
        if kind == .ipmi {
            bmcs = IPMIDecoder.settings(object, configDirectory: named.configDirectory)
            if bmcs == nil { return [] }
        } else if kind != nil {
            for key in IPMIDecoder.keys { object[key]?.report("only ipmi sources take \(key)") }
        }
        let include = globs(object["include"])
        let exclude = globs(object["exclude"])
        var root: String?
        if let rootNode = object["root"], let text = rootNode.string() {
            if kind == .simulated || kind == .ipmi {
                rootNode.report("root does not apply to \(kind == .ipmi ? "ipmi" : "simulated") sources")
            } else {
                root = ConfigPath.absolute(ConfigPath.resolve(text, against: named.configDirectory))
            }
        }
        var scenarioPath: String?
        var scenario: Scenario?
        if let scenarioNode = object["scenario"] {
            if let kind, kind != .simulated {
                scenarioNode.report("only simulated sources take a scenario")
            } else if let file = scenarioNode.namedFile(against: named.configDirectory) {
                scenarioPath = ConfigPath.absolute(file.path)
                do {
                    scenario = try ScenarioLoader.load(contents: file.bytes, path: file.path)
                } catch {
                    named.errors += error.errors
                }
            }
        } else if kind == .simulated {
            _ = object.required("scenario")
        }
        if let scenario {
            for sensor in scenario.sensors {
                if let first = named.simulatedIDs[sensor.sensorID.rawValue] {
                    object["scenario"]?.report(
                        "simulated sensor \"\(sensor.info.id)\" is already defined by \(first)")
                } else {
                    named.simulatedIDs[sensor.sensorID.rawValue] = node.path
                }
            }
        }
        var plausible = PlausibleRange.standard
        if let node = object["plausible"] {
            guard let range = plausibleRange(node) else { return [] }
            plausible = range
        }
        var wake = false
        if let node = object["wake"] {
            guard let on = node.bool() else { return [] }
            wake = on
        }
        guard let kind, let interval, let include, let exclude else { return [] }
        let one = SourceConfiguration(
            kind: kind, interval: interval, root: root, include: include, exclude: exclude,
            scenarioPath: scenarioPath, scenario: scenario, plausible: plausible, wake: wake)
        guard let bmcs else { return [one] }
        return bmcs.map {
            var bmc = one
            bmc.ipmi = $0
            return bmc
        }
    }

    /// `plausible: { min, max }` (°C, either may be left out).
    private static func plausibleRange(_ node: ConfigNode) -> PlausibleRange? {
        guard let object = node.object(keys: ["min", "max"]) else { return nil }
        var range = PlausibleRange.standard
        if let n = object["min"] {
            guard let v = n.number() else { return nil }
            range.min = v
        }
        if let n = object["max"] {
            guard let v = n.number() else { return nil }
            range.max = v
        }
        if range.min >= range.max {
            node.report("min must be below max")
            return nil
        }
        return range
    }

    /// The `metrics` section; nil after a reported error.
    private static func metrics(_ node: ConfigNode, configDirectory: String) -> MetricsConfiguration? {
        guard let object = node.object(keys: ["textfile", "interval"]) else { return nil }
        let interval = object["interval"].map { $0.duration(positive: true) } ?? MetricsConfiguration.defaultInterval
        var textfile: String?
        if let fileNode = object.required("textfile"), let text = fileNode.string() {
            let name = text.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
            // node_exporter reads only `*.prom`: any other name would be written and never seen.
            if text.hasSuffix("/") || !name.hasSuffix(".prom") || name == ".prom" {
                fileNode.report(
                    "must name a file ending in .prom (node_exporter's textfile collector reads only those)")
            } else {
                textfile = ConfigPath.absolute(ConfigPath.resolve(text, against: configDirectory))
            }
        }
        guard let textfile, let interval else { return nil }
        return MetricsConfiguration(textfile: textfile, interval: interval)
    }

    /// An optional array of sensor-id globs; nil after a reported error.
    private static func globs(_ node: ConfigNode?) -> [Glob]? {
        guard let node else { return [] }
        guard let elements = node.array() else { return nil }
        var globs: [Glob] = []
        var valid = true
        for element in elements {
            guard let pattern = element.string() else {
                valid = false
                continue
            }
            do {
                globs.append(try Glob(pattern))
            } catch {
                element.report(error.message)
                valid = false
            }
        }
        return valid ? globs : nil
    }
}
