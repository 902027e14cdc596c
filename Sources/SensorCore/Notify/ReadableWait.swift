import Dispatch

/// Waits, on the main actor, until a file descriptor is readable: the journal's inotify
/// descriptor, a child's pidfd. No thread blocks and nothing polls; the main queue's
/// dispatch source wakes the process only when the kernel says so (a global queue would
/// start libdispatch's worker pool, whose monitor wakes the process every second).
@MainActor
public enum ReadableWait {
    /// Returns when `fd` is readable; throws `CancellationError` when the task is cancelled
    /// first.
    public static func until(readable fd: Int32) async throws {
        let box = Box()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    c.resume(throwing: CancellationError())
                    return
                }
                let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
                box.source = source
                box.continuation = c
                source.setEventHandler { MainActor.assumeIsolated { box.finish(nil) } }
                source.resume()
            }
        } onCancel: {
            Task { @MainActor in box.finish(CancellationError()) }
        }
    }

    /// The one wait's source and continuation, resumed once.
    @MainActor
    private final class Box {
        var source: (any DispatchSourceRead)?
        var continuation: CheckedContinuation<Void, any Error>?

        func finish(_ error: (any Error)?) {
            source?.cancel()
            source = nil
            guard let c = continuation else { return }
            continuation = nil
            if let error { c.resume(throwing: error) } else { c.resume() }
        }
    }
}
