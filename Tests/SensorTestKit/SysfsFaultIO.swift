import Dispatch
import Glibc
package import SensorRuntime
public import SensorSysfs
import Synchronization
#if canImport(Glibc)
#endif

/// A ``SysfsIO`` over the real file system that fails chosen reads with chosen errnos
/// and counts opens and closes per path, for tests.
public final class SysfsFaultIO: SysfsIO {
    private struct State {
        var readErrors: [String: [Int32]] = [:]
        var openErrors: [String: Int32] = [:]
        var paths: [Int32: String] = [:]
        var opens: [String: Int] = [:]
        var closes: [String: Int] = [:]
        var gates: [String: DispatchSemaphore] = [:]
        var retired: [String: DispatchSemaphore] = [:]
        var blocked = 0
    }

    private let real = PosixSysfsIO()
    private let state = Mutex(State())

    /// Makes reads of the file whose path ends with `suffix` fail with `errno`, every time.
    public func failReads(_ suffix: String, errno: Int32) {
        state.withLock { $0.readErrors[suffix] = [errno] }
    }

    /// Makes the next reads of `suffix` fail with these errnos in turn, then succeed.
    public func failReads(_ suffix: String, once errnos: [Int32]) {
        state.withLock { $0.readErrors[suffix] = errnos + [0] }
    }

    /// Makes opens of the file whose path ends with `suffix` fail with `errno`.
    public func failOpens(_ suffix: String, errno: Int32) {
        state.withLock { $0.openErrors[suffix] = errno }
    }

    /// Makes opens and reads of the file whose path ends with `suffix` block (like a wedged
    /// driver) until ``unblock(_:)``.
    public func block(_ suffix: String) {
        state.withLock { $0.gates[suffix] = DispatchSemaphore(value: 0) }
    }

    /// Lets every blocked and later call on `suffix` through.
    public func unblock(_ suffix: String) {
        let gates = state.withLock { [$0.gates.removeValue(forKey: suffix), $0.retired.removeValue(forKey: suffix)] }
        for gate in gates { gate?.signal() }
    }

    /// Lets later calls on `suffix` through while those blocked now stay blocked (until
    /// ``unblock(_:)``): a wedged file replaced by a working one.
    public func letNewCallsThrough(_ suffix: String) {
        state.withLock { s in if let gate = s.gates.removeValue(forKey: suffix) { s.retired[suffix] = gate } }
    }

    /// How many calls are blocked now.
    public var blockedCount: Int { state.withLock { $0.blocked } }
    /// How many calls have blocked so far (a test waits for the one it needs:
    /// `blockedCalls.until(n)`).
    package let blockedCalls = EventCount()

    private func passGate(_ path: String) {
        guard
            let gate = state.withLock({ s -> DispatchSemaphore? in
                guard let g = s.gates.first(where: { path.hasSuffix($0.key) })?.value else { return nil }
                s.blocked += 1
                return g
            })
        else { return }
        blockedCalls.increment()
        gate.wait()
        // Pass the release on to the next caller blocked at the same gate.
        gate.signal()
        state.withLock { $0.blocked -= 1 }
    }

    /// Ends every injected failure.
    public func clear() {
        state.withLock {
            $0.readErrors = [:]; $0.openErrors = [:]
        }
    }

    /// How many times files whose path ends with `suffix` were opened.
    public func opens(_ suffix: String) -> Int {
        state.withLock { s in s.opens.filter { $0.key.hasSuffix(suffix) }.map(\.value).reduce(0, +) }
    }

    /// How many times files whose path ends with `suffix` were closed.
    public func closes(_ suffix: String) -> Int {
        state.withLock { s in s.closes.filter { $0.key.hasSuffix(suffix) }.map(\.value).reduce(0, +) }
    }

    /// Descriptors opened and not closed.
    public var openCount: Int { state.withLock { $0.paths.count } }

    /// Makes a pass-through to the real file system.
    public init() {}

    public func open(_ path: String) -> Int32 {
        passGate(path)
        if let e = state.withLock({ s in s.openErrors.first { path.hasSuffix($0.key) }?.value }) { return -e }
        let fd = real.open(path)
        if fd >= 0 {
            state.withLock {
                $0.paths[fd] = path; $0.opens[path, default: 0] += 1
            }
        }
        return fd
    }

    public func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        if let path = state.withLock({ $0.paths[fd] }) { passGate(path) }
        let injected: Int32? = state.withLock { s in
            guard let path = s.paths[fd], let key = s.readErrors.keys.first(where: { path.hasSuffix($0) }) else {
                return nil
            }
            var list = s.readErrors[key]!
            let e = list[0]
            if list.count > 1 { list.removeFirst(); s.readErrors[key] = list }
            return e == 0 ? nil : e
        }
        if let e = injected { return -Int(e) }
        return real.read(fd, into: buffer)
    }

    public func close(_ fd: Int32) {
        state.withLock { s in
            if let p = s.paths.removeValue(forKey: fd) { s.closes[p, default: 0] += 1 }
        }
        real.close(fd)
    }
}
