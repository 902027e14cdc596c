/// Runs services in one task group and shuts them down gracefully, one at a time, in the
/// reverse of their order — so producers stop before the consumers that drain them, and
/// the state writer flushes last.
///
/// Shutdown starts when ``shutdown()`` is called (a signal), when a service returns on its
/// own, or when one throws (the error is rethrown once all have stopped). Each service is
/// stopped by cancelling its task, and the next one only after it returned.
public final class ServiceGroup: Sendable {
    private let services: [any Service]
    /// Fired to cancel service i (waited for by its runner).
    private let stops: [ChangeSignal]
    /// Fired when service i has returned.
    private let ends: [ChangeSignal]
    private let shutdownRequested = ChangeSignal()

    /// - Parameter services: in start order; shut down in reverse.
    public init(_ services: [any Service]) {
        self.services = services
        stops = services.map { _ in ChangeSignal() }
        ends = services.map { _ in ChangeSignal() }
    }

    /// Starts the graceful shutdown (from any thread, any number of times).
    public func shutdown() { shutdownRequested.fire() }

    /// Runs every service until all have stopped.
    public func run() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in services.indices {
                group.addTask { [self] in
                    // A service ending (or failing) by itself starts the shutdown too.
                    defer {
                        ends[i].fire()
                        shutdownRequested.fire()
                    }
                    try await runOne(i)
                }
            }
            // Each signal has one waiter: this body.
            await untilSignalledOrCancelled(shutdownRequested)
            for i in services.indices.reversed() {
                stops[i].fire()
                await untilSignalledOrCancelled(ends[i])
            }
            group.cancelAll()
            var failure: (any Error)?
            while let result = await group.nextResult() {
                if case .failure(let error) = result, failure == nil, !(error is CancellationError) { failure = error }
            }
            if let failure { throw failure }
        }
    }

    /// Runs service `i` until it returns or its stop signal fires (which cancels it).
    private func runOne(_ i: Int) async throws {
        try await withThrowingTaskGroup(of: Void.self) { inner in
            inner.addTask { [self] in try await services[i].run() }
            inner.addTask { [self] in await untilSignalledOrCancelled(stops[i]) }
            _ = try await inner.next()
            inner.cancelAll()
            while try await inner.next() != nil {}
        }
    }
}

/// Waits until `signal` fires or the task is cancelled.
package func untilSignalledOrCancelled(_ signal: ChangeSignal, isolation: isolated (any Actor)? = #isolation) async {
    await withTaskCancellationHandler {
        await signal.wait()
    } onCancel: {
        signal.fire()
    }
}

/// Waits until `signal` fires, `timer` runs out, or the task is cancelled; true if `timer`
/// ran out first (a sleep that ended, not one cut short). ``withTimer(_:_:)`` with the signal
/// as the work.
package func untilSignalled(_ signal: ChangeSignal, or timer: @escaping @Sendable () async -> Bool) async -> Bool {
    await withTimer(timer) { await untilSignalledOrCancelled(signal) } == nil
}

/// Waits until the task is cancelled.
package func untilCancelled(isolation: isolated (any Actor)? = #isolation) async {
    await untilSignalledOrCancelled(ChangeSignal())
}
