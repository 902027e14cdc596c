import SensorConfig
import SensorCore
import SensorIPMI
import SensorRuntime
import SensorSimulation
import SensorSysfs

/// `sensorwatch check`: validates the configuration and every file it names.
enum CheckCommand {
    static let help = """
        usage: sensorwatch check [--config PATH]

        Validates the configuration and every file it names (scenarios, CSV files).
        Prints OK, or every error as PATH: LOCATION: message, one per line.
        A rule's sensor or a source's include/exclude that names an id of the form used
        before ids named devices (thermal:thermal_zoneN, hwmon:coretemp/temp1) is warned
        about on stderr, with the id it means on this machine; the exit status stays 0.
        So are ipmi sources this machine cannot read: libfreeipmi missing (the package to
        install), or no /dev/ipmi0 for the local BMC (how to load its drivers).
        A rule that selects no sensor of this machine (a typo in its sensor, a quantity
        or a limit no sensor has) is warned about on stdout, one line per rule, with the
        nearest ids; the exit status stays 0 (a device may be unplugged for now).

        options:
          --config PATH  configuration file (default: $SENSORWATCH_CONFIG,
                         else /etc/sensorwatch/sensorwatch.json5)
          --help         show this help

        exit status: 0 valid, 78 invalid, 64 bad usage

        examples:
          sensorwatch check
          sensorwatch check --config config/sensorwatch.json5
          sensorwatch check --config new.json5 && sudo systemctl reload sensorwatch
        """

    static func run(_ args: [String]) async throws(ExitCode) -> ExitCode {
        let options: Options = try CommandSupport.parse(args, help: help)
        let configuration: Configuration
        do {
            configuration = try CommandSupport.loadConfiguration(options.configPath)
        } catch {
            // A rule-test file fails as a configuration with `config`/`tests: unknown key`,
            // which says nothing of what it is: say it, and what reads it.
            if (try? RuleTestLoader.load(path: options.configPath)) != nil {
                let path = DisplayText.escaped(options.configPath)
                Output.stderr(
                    "\(path): this is a rule-test file, not a configuration: run it with `sensorwatch test \(path)`")
            }
            throw error
        }
        for warning in LegacySensorIDs.warnings(configuration) { Output.stderr(warning.description) }
        for warning in IPMICheck.warnings(configuration) {
            Output.stderr("warning: " + DisplayText.escaped(warning))
        }
        let readings = try CommandSupport.withThreads({ () throws(SystemError) in
            try SensorsCommand.read(configuration.sources, derived: configuration.derived, clock: BootClock())
        })
        for line in unselectedWarnings(configuration, sensors: readings.map(\.sensor)) { Output.stdout(line) }
        Output.stdout("OK")
        return .success
    }

    /// `PATH: rules[N]: warning: rule "NAME" selects no sensor of this machine: …`, one line
    /// per rule that selects none of `sensors` (``RuleSelection``), text from the
    /// configuration escaped as every output line is.
    static func unselectedWarnings(_ configuration: Configuration, sensors: [SensorInfo]) -> [String] {
        RuleSelection.unselected(configuration.rules, sensors: sensors).map { finding in
            DisplayText.escaped("\(configuration.path): rules[\(finding.index)]: warning: " + finding.message)
        }
    }
}
