import Dispatch
import Glibc
@testable import SensorRuntime
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(1)))
struct ThreadStackTests {
    /// What one run on a thread saw: the stack's resident KiB after a deep call, after the
    /// release, and after going deep again; the bytes given back; the frame's value after.
    private struct Seen {
        var deep = 0, released = 0, again = 0, given = 0
        var kept: [UInt64] = []
    }

    @Test func theStackPagesADeepCallLeftAreGivenBackAndTheCallersFramesKeepTheirValues() throws {
        let seen = try onThread {
            var seen = Seen()
            // Values in this frame's own stack memory, above what is given back.
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 64) { frame in
                for i in 0..<64 { frame[i] = 0x5EED_0000 + UInt64(i) }
                touchStack(kiB: 256)
                seen.deep = residentKiB(around: frame.baseAddress!)
                seen.given = ThreadStack.release()
                seen.released = residentKiB(around: frame.baseAddress!)
                seen.kept = Array(frame)
                // The pages come back, zeroed, at the next deep call.
                touchStack(kiB: 256)
                seen.again = residentKiB(around: frame.baseAddress!)
            }
            return seen
        }
        #expect(seen.deep >= 256)
        #expect(seen.given >= 240 * 1024)
        #expect(seen.deep - seen.released >= 240)
        #expect(seen.again >= 256)
        #expect(seen.kept == (0..<64).map { 0x5EED_0000 + UInt64($0) })
    }

    /// Runs `body` on a ``DetachedThread`` and waits for its result.
    private func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) throws -> T {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        try DetachedThread.start("a stack test") {
            let value = body()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }
}

/// Writes to every page of at least `kiB` KiB of this thread's stack, below the caller's
/// frame: a recursion whose frames each hold 512 bytes it passes out.
@inline(never)
private func touchStack(kiB: Int) {
    _ = descend(kiB * 2)
}

@inline(never)
private func descend(_ depth: Int) -> UInt64 {
    var block = SIMD64<UInt64>(repeating: UInt64(depth))
    // Passed out, so the block lives in this frame's memory and is written there.
    withUnsafeMutableBytes(of: &block) { blackHole($0.baseAddress!) }
    return depth == 0 ? block[0] : block[1] &+ descend(depth - 1)
}

@inline(never)
private func blackHole(_ pointer: UnsafeMutableRawPointer) {
    pointer.storeBytes(of: 1, as: UInt8.self)
}

/// The resident KiB of the mapping that holds `address` (`/proc/self/smaps`'s `Rss:`).
private func residentKiB(around address: UnsafeRawPointer) -> Int {
    let target = UInt(bitPattern: address)
    guard let file = fopen("/proc/self/smaps", "r") else { return -1 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 512)
    var inside = false
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let fields = text.split(separator: " ", omittingEmptySubsequences: true)
        guard let first = fields.first else { continue }
        if !first.hasSuffix(":") {
            let bounds = first.split(separator: "-").compactMap { UInt($0, radix: 16) }
            inside = bounds.count == 2 && bounds[0] <= target && target < bounds[1]
        } else if inside, first == "Rss:", fields.count >= 2 {
            return Int(fields[1]) ?? -1
        }
    }
    return -1
}
