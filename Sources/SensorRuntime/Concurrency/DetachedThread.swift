#if canImport(Glibc)
import Glibc
#endif

/// The one way sensorwatch starts a thread: a detached POSIX thread that runs a closure once.
///
/// Threads are for what must not wait on Swift's executors or be waited on by them: a
/// source's reads, which may block in the kernel for as long as a driver likes; the stall
/// watch and the clock's sleeper, which block on kernel timers; the actor's own thread; the
/// state writers, which wait for the disk; notify's descriptor waiter and each HTTP
/// request, which block in `poll` and in libcurl.
///
/// Making one can fail (the user's or the system's thread limit, `RLIMIT_NPROC`, memory):
/// ``start(_:_:)`` throws, and every caller says what it does without the thread.
public enum DetachedThread {
    /// How a thread that could not be made is said: `cannot start a thread for the clock:
    /// Resource temporarily unavailable` (`EAGAIN`: a thread limit or no memory).
    public static func starting(_ purpose: String) -> SystemError.Operation {
        .phrased("pthread_create", as: "cannot start a thread for \(purpose)")
    }

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Runs `body` once on a new detached thread.
    ///
    /// - Parameter purpose: what the thread is for, as a failure names it.
    /// - Throws: ``SystemError`` when no thread could be made; `body` is not run then.
    public static func start(_ purpose: String, _ body: @escaping @Sendable () -> Void) throws(SystemError) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        // Reading needs little stack, but the commit and the rule loop of a poll thread's own
        // cycles run on it too (`DaemonActor.donate`, see DaemonExecutor). Untouched stack
        // pages are not resident, so 1 MiB costs no memory until used.
        pthread_attr_setstacksize(&attributes, 1024 * 1024)
        let result = pthread_create(
            &thread, &attributes,
            { context in
                let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
                body.run()
                return nil
            }, context)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw SystemError(starting(purpose), errno: result)
        }
    }
}
