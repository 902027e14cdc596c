import Testing
@testable import SensorCore

#if canImport(Glibc)
import Glibc
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
        let waiter = DescriptorWaiter()
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
        let waiter = DescriptorWaiter()
        let p = Self.pipeFDs()
        defer { close(p.read); close(p.write) }
        let waiting = Task { try await waiter.readable(p.read) }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        var one: UInt8 = 1
        _ = write(p.write, &one, 1)
        try await waiter.readable(p.read)
    }
}
