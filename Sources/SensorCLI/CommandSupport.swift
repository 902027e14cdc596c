import SensorCore

/// Shared steps of the subcommands: parsing with usage errors, loading the configuration.
enum CommandSupport {
    /// Parses options, printing help (exit 0) or a usage error (exit 64) when needed.
    /// Returns nil with the exit code to use when the command should not go on.
    static func parse(
        _ args: [String], valued: Set<String> = ["config"], flags: Set<String> = [], arguments: Bool = false,
        help: String
    ) -> Result<Options, ExitCode> {
        do {
            let options = try Options(args, valued: valued, flags: flags, arguments: arguments)
            if options.has("help") {
                Output.stdout(help)
                return .failure(.success)
            }
            return .success(options)
        } catch {
            Output.stderr("sensorwatch: \(error)\n\n" + help)
            return .failure(.usage)
        }
    }

    /// Loads the configuration, printing every error (one per line) on failure.
    static func loadConfiguration(_ path: String) -> Result<Configuration, ExitCode> {
        do {
            return .success(try ConfigLoader.load(path: path))
        } catch {
            for e in error.errors { Output.stderr(e.description) }
            return .failure(.config)
        }
    }
}
