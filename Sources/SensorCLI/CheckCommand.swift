import SensorCore
import SensorIPMI
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

    static func run(_ args: [String]) async -> ExitCode {
        let options: Options
        switch CommandSupport.parse(args, help: help) {
        case .success(let o): options = o
        case .failure(let code): return code
        }
        switch CommandSupport.loadConfiguration(options.configPath) {
        case .success(let configuration):
            for warning in LegacySensorIDs.warnings(configuration) { Output.stderr(warning.description) }
            for warning in IPMICheck.warnings(configuration) { Output.stderr("warning: " + DisplayText.escaped(warning)) }
            Output.stdout("OK")
            return .success
        case .failure(let code):
            return code
        }
    }
}
