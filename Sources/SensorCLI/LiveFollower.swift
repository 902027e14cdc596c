import SensorLive
import SensorRuntime

/// Follows the daemon's live stream (SPEC §22) across its restarts: connects, hands on every
/// message, and when there is no daemon or it goes, says so and tries again every
/// ``retryInterval`` — the one reconnecting loop of `watch` and `top`.
///
/// The socket's path is asked again at each try: a daemon started later may put it in
/// another runtime directory (``RuntimeDirectory/clientFile(_:)``).
struct LiveFollower: Sendable {
    /// How long to wait between tries.
    static let retryInterval = Duration.milliseconds(500)

    let path: @Sendable () -> String?
    let subscription: LiveSubscription?
    let clock: any RunClock

    /// Hands every event to `handle`, in this task, until it is cancelled (then the
    /// connection is closed); a structured loop, so it runs on the caller's executor.
    func follow(_ handle: (LiveFollowerEvent) async -> Void) async {
        while !Task.isCancelled {
            guard let path = path() else { return }
            let connection: LiveConnection
            do {
                connection = try LiveConnection(path: path, subscription: subscription)
            } catch {
                await handle(.absent(error))
                try? await clock.sleep(for: Self.retryInterval)
                continue
            }
            await handle(.connected(path: path))
            var reason = "the daemon closed the stream"
            do {
                for try await message in connection.messages() {
                    await handle(.message(message))
                }
            } catch {
                reason = "\(error)"
            }
            connection.close()
            if Task.isCancelled { return }
            await handle(.lost(reason: reason))
            try? await clock.sleep(for: Self.retryInterval)
        }
    }
}
