@testable import SensorRuntime
import SensorTestKit
import Synchronization
import Testing

/// The one way a task parks until a thread or a test resumes it: resumed once, by its owner
/// or by its cancellation, also a cancellation that comes before it parked.
@Suite(.timeLimit(.minutes(1)))
struct ParkingLotTests {
    /// An owner: tasks park with a number; `release(n)` resumes those with it.
    final class Owner: Sendable {
        let lot = Mutex(ParkingLot<Int>())
        /// Tasks parked so far, for a test to wait for.
        let parks = EventCount()

        func wait(for n: Int, cancelledFirst: Bool = false) async throws {
            let id = lot.withLock { $0.ticket() }
            if cancelledFirst { _ = lot.withLock { $0.cancel(id) } }
            try await parkTask(
                park: { c in
                    guard self.lot.withLock({ $0.park(id, n, c) }) else { return .failure(CancellationError()) }
                    self.parks.increment()
                    return nil
                },
                cancel: { self.lot.withLock { $0.cancel(id)?.continuation } })
        }

        func release(_ n: Int) {
            for parked in lot.withLock({ $0.take { $0 == n } }) { parked.continuation.resume() }
        }

        var count: Int { lot.withLock { $0.parked.count } }
    }

    @Test func theOwnerResumesWhatItTakesAndLeavesTheRest() async throws {
        let owner = Owner()
        let one = Task { try await owner.wait(for: 1) }
        let two = Task { try await owner.wait(for: 2) }
        #expect(await owner.parks.until(2))
        #expect(owner.count == 2)
        owner.release(1)
        try await one.value
        #expect(owner.count == 1)
        two.cancel()
        await #expect(throws: CancellationError.self) { try await two.value }
        #expect(owner.count == 0)
    }

    @Test func aCancellationBeforeParkingIsNotLost() async {
        let owner = Owner()
        await #expect(throws: CancellationError.self) { try await owner.wait(for: 1, cancelledFirst: true) }
        #expect(owner.count == 0)
    }
}
