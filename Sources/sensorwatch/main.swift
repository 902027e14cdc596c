import SensorCLI

#if canImport(Glibc)
import Glibc
#endif

let status = await CLI.main(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
