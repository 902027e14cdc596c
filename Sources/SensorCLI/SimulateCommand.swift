import SensorCore

#if canImport(Glibc)
import Glibc
#endif

/// `sensorwatch simulate`: the configured rules over a scenario, in virtual time.
enum SimulateCommand {
    static let help = """
        usage: sensorwatch simulate --config PATH [--scenario PATH] [--json] [--plot FILE.svg]

        Runs the configuration's rules over its simulated sources (other sources are
        ignored) once, in virtual time, as fast as the CPU allows, and prints every alert
        event in time order (ties: rule order, then sensor id).

        options:
          --config PATH    configuration file (default: $SENSORWATCH_CONFIG,
                           else /etc/sensorwatch/sensorwatch.json5)
          --scenario PATH  play this scenario instead of the configured simulated sources
          --json           one JSON object per line:
                           {"time":12.0,"event":"firing","rule":…,"sensor":…,
                            "severity":…,"value":81.5,"threshold":80}
                           (predict rules add "predicted": where the trend heads)
          --plot FILE.svg  also draw every sensor's values, the rules' thresholds and
                           the events into an SVG file
          --help           show this help

        exit status: 0 done, 78 configuration error, 64 bad usage, 1 no simulated source
        """

    @MainActor
    static func run(_ args: [String]) async -> ExitCode {
        let options: Options
        switch CommandSupport.parse(args, valued: ["config", "scenario", "plot"], flags: ["json"], help: help) {
        case .success(let o): options = o
        case .failure(let code): return code
        }
        let configuration: Configuration
        switch CommandSupport.loadConfiguration(options.configPath) {
        case .success(let c): configuration = c
        case .failure(let code): return code
        }
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
            Output.stderr("sensorwatch: \(configuration.path): no simulated source to play (add one, or pass --scenario)")
            return .failure
        }
        let plot = options["plot"] == nil ? nil : SVGPlot()
        var observe: (@MainActor (PollCycle) -> Void)?
        if let plot {
            observe = { cycle in plot.add(cycle) }
        }
        let events = await Simulator.run(
            scenarios: scenarios, rules: configuration.rules, derived: configuration.derived, observe: observe)
        if let path = options["plot"], let plot {
            let svg = plot.render(rules: configuration.rules, events: events)
            guard TextFileWriter.write(svg, to: path) else {
                Output.stderr("sensorwatch: \(path): cannot write the plot: \(String(cString: strerror(errno)))")
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
}
