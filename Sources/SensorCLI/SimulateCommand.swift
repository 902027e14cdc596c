import Glibc
import SensorConfig
import SensorCore
import SensorPlot
import SensorRuntime
import SensorSimulation

#if canImport(Glibc)
#endif

/// `sensorwatch simulate`: the configured rules over a scenario, in virtual time.
enum SimulateCommand {
    static let help = """
        usage: sensorwatch simulate --config PATH [--scenario PATH] [--json]
                                    [--plot FILE.svg [--sensor GLOB]...]

        Runs the configuration's rules over its simulated sources (other sources are
        ignored) once, in virtual time, as fast as the CPU allows, and prints every alert
        event in time order (ties: rule order, then sensor id). On a terminal, a long
        run shows its progress on stderr.

        options:
          --config PATH    configuration file (default: $SENSORWATCH_CONFIG,
                           else /etc/sensorwatch/sensorwatch.json5)
          --scenario PATH  play this scenario instead of the configured simulated sources
          --json           one JSON object per line:
                           {"time":12.0,"event":"firing","rule":…,"sensor":…,
                            "severity":…,"value":81.5,"threshold":80}
                           (predict rules add "predicted": where the trend heads)
          --plot FILE.svg  also draw the run into an SVG file: a panel per sensor with
                           its values (gaps and red marks where reads failed), each
                           rule's threshold line (named) and hysteresis band, a
                           predict rule's predicted value (dashed), shading while an
                           alert fires, a marker per event, and a legend
          --sensor GLOB    plot only the sensors whose id matches GLOB (repeatable;
                           e.g. 'sim:*'); a GLOB that matches no sensor is a usage
                           error, so a typo does not go unnoticed
          --help           show this help

        exit status: 0 done, 78 configuration error, 64 bad usage, 1 no simulated source
        or the plot cannot be written

        examples:
          sensorwatch simulate --config config/sensorwatch.json5
          sensorwatch simulate --config C --scenario heatwave.json5 --json
          sensorwatch simulate --config C --plot run.svg --sensor 'sim:*'
        """

    @DaemonActor
    static func run(_ args: [String]) async throws(ExitCode) -> ExitCode {
        let options: Options = try CommandSupport.parse(
            args, valued: ["config", "scenario", "plot", "sensor"], flags: ["json"], help: help)

        // The plot is SVG whatever the name: a `.png` would hold SVG that no viewer opens as PNG.
        if let path = options["plot"], !path.lowercased().hasSuffix(".svg") {
            Output.stderr(
                "sensorwatch: --plot \(DisplayText.escaped(path)): the plot is SVG; name the file .svg "
                    + "(for a PNG: rsvg-convert FILE.svg -o FILE.png)\n\n" + help)
            return .usage
        }
        let panels: [Glob] = try panelGlobs(options)
        let configuration: Configuration = try CommandSupport.loadConfiguration(options.configPath)
        var scenarios = configuration.sources.compactMap(\.scenario)
        if let path = options["scenario"] {
            do {
                scenarios = [try ScenarioLoader.load(path: path)]
            } catch {
                for e in error.errors { Output.stderr(e.description) }
                return .config
            }
        }
        guard !scenarios.isEmpty else {
            Output.stderr(
                "sensorwatch: \(configuration.path): no simulated source to play (add one, or pass --scenario)")
            return .failure
        }
        // A rule for simulated sensors (`sim:…`) that selects none of the configuration's
        // scenarios would print nothing: say so. Rules for real hardware select nothing here by
        // design, and a `--scenario` may well feed a few rules only.
        if options["scenario"] == nil {
            let played = scenarios.flatMap { $0.sensors.map(\.info) }
            let simulated = configuration.rules.filter { $0.selector.sensor?.pattern.hasPrefix("sim:") ?? false }
            for finding in RuleSelection.unselected(simulated, sensors: played) {
                Output.stderr(DisplayText.escaped("sensorwatch: warning: " + finding.message))
            }
        }
        let plot = options["plot"] == nil ? nil : SVGPlot()
        let longest = scenarios.map(\.duration).max() ?? .zero
        let progress = isatty(2) == 1 ? SimulateProgress(total: longest) : nil
        var observe: (@DaemonActor (PollCycle) -> Void)?
        if plot != nil || progress != nil {
            observe = { cycle in
                plot?.add(cycle)
                progress?.saw(cycle)
            }
        }
        let events = await Simulator.run(
            scenarios: scenarios, rules: configuration.rules, derived: configuration.derived, observe: observe)
        progress?.finish()
        if let path = options["plot"], let plot {
            if let code = checkMatches(panels, plot) { return code }
            var subtitle = configuration.path
            if let scenario = options["scenario"] { subtitle += " · " + scenario }
            let svg = plot.render(rules: configuration.rules, events: events, panels: panels, subtitle: subtitle)
            do {
                // Atomic, not durable: a viewer that reloads never shows half a plot.
                try AtomicFileWriter(path: path).write(svg)
            } catch {
                Output.stderr("sensorwatch: \(path): cannot write the plot: \(error.reason)")
                return .failure
            }
        }
        let json = options.has("json")
        var out = ""
        out.reserveCapacity(events.count * 120)
        for event in events {
            out += json ? EventFormatter.json(event) : EventFormatter.line(event)
            out += "\n"
        }
        if !out.isEmpty { Output.stdout(out) }
        return .success
    }

    /// The `--sensor` globs; a bad glob, or `--sensor` without `--plot`, is a usage error.
    private static func panelGlobs(_ options: Options) throws(ExitCode) -> [Glob] {
        let patterns = options.all("sensor")
        guard patterns.isEmpty || options["plot"] != nil else {
            Output.stderr("sensorwatch: --sensor chooses the panels of --plot; give --plot FILE.svg too\n\n" + help)
            throw .usage
        }
        var globs: [Glob] = []
        for pattern in patterns {
            do {
                globs.append(try Glob(pattern))
            } catch {
                Output.stderr("sensorwatch: --sensor: \(error)")
                throw .usage
            }
        }
        return globs
    }

    /// A usage error when a `--sensor` glob matches none of the run's sensors (a typo
    /// should not quietly give an empty or partial plot); nil when each matches one.
    @DaemonActor
    private static func checkMatches(_ globs: [Glob], _ plot: SVGPlot) -> ExitCode? {
        for glob in globs where plot.sensors(matching: glob).isEmpty {
            let ids = plot.sensorIDs.map(\.rawValue)
            let known =
                ids.isEmpty
                ? "the run has no sensors"
                : "the run has " + ids.prefix(8).joined(separator: ", ")
                    + (ids.count > 8 ? ", … (\(ids.count) in all)" : "")
            Output.stderr("sensorwatch: --sensor \"\(glob.pattern)\" matches no sensor; \(known)")
            return .usage
        }
        return nil
    }
}
