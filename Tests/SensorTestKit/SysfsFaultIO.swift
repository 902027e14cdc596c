#if canImport(Glibc)
import Glibc
#endif
import SensorCore
import Synchronization

/// A ``SysfsIO`` over the real file system that fails chosen reads with chosen errnos
/// and counts opens and closes per path, for tests.
public final class SysfsFaultIO: SysfsIO {
    private struct State {
        var readErrors: [String: [Int32]] = [:]
        var openErrors: [String: Int32] = [:]
        var paths: [Int32: String] = [:]
        var opens: [String: Int] = [:]
        var closes: [String: Int] = [:]
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

    /// Ends every injected failure.
    public func clear() {
        state.withLock { $0.readErrors = [:]; $0.openErrors = [:] }
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
        if let e = state.withLock({ s in s.openErrors.first { path.hasSuffix($0.key) }?.value }) { return -e }
        let fd = real.open(path)
        if fd >= 0 {
            state.withLock { $0.paths[fd] = path; $0.opens[path, default: 0] += 1 }
        }
        return fd
    }

    public func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let injected: Int32? = state.withLock { s in
            guard let path = s.paths[fd], let key = s.readErrors.keys.first(where: { path.hasSuffix($0) }) else { return nil }
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
