import SensorRuntime

extension CLI {
    /// Where the executable runs ``main(_:)``'s nonisolated steps (its task executor
    /// preference): the daemon's executor, not Swift's global pool, whose libdispatch worker
    /// threads start a monitor timer that wakes the process every second for as long as it
    /// runs — twice the daemon's own wake-ups at 12 zones polled once a second. Set at the
    /// call site in `main`: calling a nonisolated async function first would already have
    /// hopped to the pool.
    public static var executor: any TaskExecutor { DaemonActor.taskExecutor }
}
