@testable import SensorRuntime
@testable import SensorSimulation
import SensorTestKit
import Synchronization
import Testing

/// Services run together and stop gracefully, producers before consumers.
struct ServiceGroupTests {
    /// Runs until cancelled, then notes its name (its graceful shutdown).
    struct Recorder: Service {
        let name: String
        let log: LineLog
        func run() async throws {
            log.append("start \(name)")
            await untilCancelled()
            log.append("stop \(name)")
        }
    }

    struct Failing: Service {
        struct Broken: Error {}
        func run() async throws { throw Broken() }
    }

    @Test(.timeLimit(.minutes(1)))
    func shutdownStopsServicesOneAtATimeInReverseOrder() async throws {
        let log = LineLog()
        let group = ServiceGroup(["writer", "loop", "sources"].map { Recorder(name: $0, log: log) })
        let run = Task { try await group.run() }
        // All three started: shutdown would otherwise stop one that never ran.
        #expect(await log.count.until(3))
        group.shutdown()
        try await run.value
        #expect(Array(log.all.suffix(3)) == ["stop sources", "stop loop", "stop writer"])
    }

    @Test(.timeLimit(.minutes(1)))
    func aFailingServiceStopsTheOthersAndItsErrorIsRethrown() async {
        let log = LineLog()
        let group = ServiceGroup([Recorder(name: "writer", log: log), Failing()])
        await #expect(throws: Failing.Broken.self) { try await group.run() }
        #expect(log.all == ["start writer", "stop writer"])
    }
}
