import SensorCLI

#if canImport(Glibc)
import Glibc
#endif

// libdispatch logs "Failed to set thread priority for worker thread" to stderr each time a
// hardened service (no CAP_SYS_NICE) refuses it a higher priority: harmless, but it would
// fill the journal. An explicit LIBDISPATCH_LOG in the environment still wins.
setenv("LIBDISPATCH_LOG", "NO", 0)

let args = Array(CommandLine.arguments.dropFirst())
// First, before anything slow: a SIGTERM from now on is kept for the daemon (SignalSource).
CLI.prepare(args)
let status = await withTaskExecutorPreference(CLI.executor) { await CLI.main(args) }
exit(status.rawValue)
