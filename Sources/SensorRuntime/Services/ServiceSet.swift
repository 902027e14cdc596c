/// Services that come and go while it runs — notify's lanes and its deliveries' upkeep, which
/// a reload adds and removes — as the children of one task group: cancellation is shutdown,
/// as in ``ServiceGroup``, and a removed service is cancelled there and awaited by the group.
///
/// A service inserted before ``run()`` starts with it. A thrown error ends only the service
/// that threw (a lane's failure is its own).
@DaemonActor
package final class ServiceSet<Key: Hashable & Sendable>: Service {
    private typealias Start = (service: any Service, stop: ChangeSignal)
    private let starts: AsyncStream<Start>
    private let continuation: AsyncStream<Start>.Continuation
    /// Fired to stop each running service.
    private var stops: [Key: ChangeSignal] = [:]

    package init() { (starts, continuation) = AsyncStream.makeStream(of: Start.self) }

    /// Whether a service runs under `key`.
    package func contains(_ key: Key) -> Bool { stops[key] != nil }

    /// The keys of the services running.
    package var keys: [Key] { Array(stops.keys) }

    /// Starts `service` under `key` (a service already there is stopped first).
    package func insert(_ key: Key, _ service: any Service) {
        remove(key)
        let stop = ChangeSignal()
        stops[key] = stop
        continuation.yield((service, stop))
    }

    /// Stops the service under `key`, if any (cancelled; the group awaits it).
    package func remove(_ key: Key) { stops.removeValue(forKey: key)?.fire() }

    /// Runs every service inserted, until cancelled; then all are cancelled and awaited.
    package func run() async {
        await withTaskGroup(of: Void.self) { group in
            // The stream ends when this task is cancelled: the children, cancelled with it,
            // are awaited at the group's end.
            for await start in starts {
                group.addTask {
                    _ = await withTimer({
                        await untilSignalledOrCancelled(start.stop); return true
                    }) { try? await start.service.run() }
                }
            }
        }
        stops.removeAll()
    }
}
