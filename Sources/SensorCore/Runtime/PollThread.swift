#if canImport(Glibc)
import Glibc
#endif

/// Starts a detached POSIX thread that runs a closure once.
///
/// Each source gets one: its reads may block in the kernel for as long as a driver likes,
/// which must stall neither the other sources nor Swift's cooperative thread pool.
enum PollThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Runs `body` on a new detached thread; returns false if no thread could be made.
    @discardableResult
    static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        // Reading needs little stack, but the commit and the rule loop of the thread's own
        // cycles run on it too (`DaemonActor.donate`, see DaemonExecutor). Untouched stack pages are
        // not resident, so 1 MiB costs no memory until used.
        pthread_attr_setstacksize(&attributes, 1024 * 1024)
        let result = pthread_create(&thread, &attributes, { context in
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            body.run()
            return nil
        }, context)
        if result != 0 {
            Unmanaged<Body>.fromOpaque(context).release()
            return false
        }
        return true
    }
}
