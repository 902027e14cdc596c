/// A ``Service`` that runs one closure: a delivery's upkeep, the wake socket, the watchdog's
/// pings. The closure must end when its task is cancelled.
package struct ClosureService: Service {
    let body: @Sendable () async -> Void

    package init(_ body: @escaping @Sendable () async -> Void) { self.body = body }

    package func run() async { await body() }
}
