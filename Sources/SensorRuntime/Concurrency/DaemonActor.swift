/// The actor the daemon's model, rule loop and services run on (and `simulate`'s).
///
/// Not the main actor: Swift's main actor is the main dispatch queue, and a poll thread can
/// only run as the main actor by waking the main thread to hand the queue over
/// (`DispatchQueue.main.sync`) — with 12 zones polled once a second that was three
/// context switches a second instead of one. This actor's ``DaemonExecutor`` lets the poll
/// thread itself run the work its poll makes ready (``donate(_:)``).
@globalActor
public actor DaemonActor {
    /// The one instance.
    public static let shared = DaemonActor()
    private static let executor = DaemonExecutor()

    /// The task executor the daemon's tasks prefer (see ``DaemonExecutor``). The executable
    /// runs its whole asynchronous `main` with this preference, so no libdispatch worker
    /// thread is ever started (their pool monitor would wake the process every second).
    public static var taskExecutor: any TaskExecutor { executor }

    /// Starts the thread of the actor's executor; the executable calls it first, so a
    /// process that cannot have it says so at once instead of waiting for it later.
    ///
    /// - Throws: ``SystemError`` when no thread could be made.
    public static func startThread() throws(SystemError) { try executor.startThread() }

    /// Jobs of this actor run on ``DaemonExecutor``.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { Self.executor.asUnownedSerialExecutor() }

    /// Runs `body` as this actor; the caller must be on it already (checked), e.g. in an
    /// observation `onChange`, which runs synchronously inside a mutation.
    public static func assumeIsolated<T>(_ body: @DaemonActor () throws -> T) rethrows -> T {
        executor.checkIsolated()
        // Safe once checked: this thread owns the actor's executor. Swift offers a
        // synchronous `assumeIsolated` for a global actor's closure only on `MainActor`,
        // whose standard-library body does exactly this cast (a global-actor function
        // type has the plain function's layout); the instance method
        // `DaemonActor.shared.assumeIsolated` takes `(isolated DaemonActor)` closures, from
        // which the compiler does not let `@DaemonActor` code be called.
        return try withoutActuallyEscaping(body) { body in
            try unsafeBitCast(body, to: (() throws -> T).self)()
        }
    }

    /// Runs `body` as this actor on the calling thread, then every job it made ready
    /// (a task it resumed), before returning. See ``DaemonExecutor/donate(_:)``.
    package static func donate(_ body: @DaemonActor () -> Void) { executor.donate(body) }
}
