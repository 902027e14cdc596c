import SensorCLI

#if canImport(Glibc)
import Glibc
#endif

// libdispatch logs "Failed to set thread priority for worker thread" to stderr each time a
// hardened service (no CAP_SYS_NICE) refuses it a higher priority: harmless, but it would
// fill the journal. An explicit LIBDISPATCH_LOG in the environment still wins.
setenv("LIBDISPATCH_LOG", "NO", 0)

// First, before anything slow: a SIGTERM from now on is kept for the daemon (SignalSource),
// and the thread every command's tasks run on is started (or the process says why not).
if let status = CLI.prepare(Array(CommandLine.arguments.dropFirst())) { exit(status.rawValue) }
// The command runs as a task on that thread and exits the process when it ends. Not an
// asynchronous `main`: that hands the main queue to a libdispatch worker thread, which
// starts libdispatch's pool monitor (a wake-up a second for good) and, where no thread can
// be had (a thread limit), hangs the process before a word is said.
CLI.launch(Array(CommandLine.arguments.dropFirst()))
while true { pause() }
