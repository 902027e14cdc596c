import Glibc
@testable import SensorRuntime
import SensorTestKit
import Testing

#if canImport(Glibc)
#endif

/// The poll thread behind every notify wait: a wait ends when its descriptor is readable,
/// or with CancellationError when its task is cancelled; other waits go on.
struct DescriptorWaiterTests {
    static func pipeFDs() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        return (fds[0], fds[1])
    }

    @Test func aWaitEndsWhenItsDescriptorIsReadableAndOnlyThatOne() async throws {
        let waiter = try DescriptorWaiter()
        let a = Self.pipeFDs(), b = Self.pipeFDs()
        defer { for fd in [a.read, a.write, b.read, b.write] { close(fd) } }
        let other = Task { try await waiter.readable(b.read) }
        var one: UInt8 = 1
        _ = write(a.write, &one, 1)
        try await waiter.readable(a.read)
        other.cancel()
        await #expect(throws: CancellationError.self) { try await other.value }
    }

    @Test func aCancelledWaitThrowsAndTheNextWaitStillWorks() async throws {
        let waiter = try DescriptorWaiter()
        let p = Self.pipeFDs()
        defer { close(p.read); close(p.write) }
        let waiting = Task { try await waiter.readable(p.read) }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        var one: UInt8 = 1
        _ = write(p.write, &one, 1)
        try await waiter.readable(p.read)
    }

    /// The daemon's wake (NotifyWakeSocket) nudges the journal followers' waits; a child's
    /// pidfd wait is not one of them.
    @Test func aNudgeEndsTheNudgeableWaitsAndNoOther() async throws {
        let waiter = try DescriptorWaiter()
        let journal = Self.pipeFDs(), child = Self.pipeFDs()
        defer { for fd in [journal.read, journal.write, child.read, child.write] { close(fd) } }
        let seen = waiter.nudges
        let follower = Task { try await waiter.readable(journal.read, nudgedAfter: seen) }
        let exec = Task { try await waiter.readable(child.read) }
        // Nudged only once both waits are in the poll set, so the follower ends by the nudge
        // itself, not by the count having moved before it waited.
        #expect(await waiter.waitsBegun.until(2))
        #expect(waiter.waitCount == 2)
        waiter.nudge()
        try await follower.value
        #expect(waiter.waitCount == 1)
        exec.cancel()
        await #expect(throws: CancellationError.self) { try await exec.value }
    }

    /// A nudge between a follower's look at the journal and its wait is not lost.
    @Test func aNudgeSinceTheCountTheCallerSawEndsTheWaitAtOnce() async throws {
        let waiter = try DescriptorWaiter()
        let journal = Self.pipeFDs()
        defer { close(journal.read); close(journal.write) }
        let seen = waiter.nudges
        waiter.nudge()
        try await waiter.readable(journal.read, nudgedAfter: seen)
        #expect(waiter.nudges == seen + 1)
        #expect(waiter.waitCount == 0)
    }
}
