import Synchronization

/// A terminal in memory for tests: a size the test sets and every write recorded.
public final class MemoryTerminal: Terminal {
    private struct State {
        var size: TerminalSize?
        var writes: [[UInt8]] = []
    }

    private let state: Mutex<State>

    /// A terminal of `size` (nil: one whose size cannot be told).
    public init(size: TerminalSize?) {
        state = Mutex(State(size: size))
    }

    /// The size ``size()`` gives from now on, as after a resize.
    public func resize(to size: TerminalSize?) {
        state.withLock { $0.size = size }
    }

    /// Each write so far, in order.
    public var writes: [[UInt8]] { state.withLock { $0.writes } }

    /// Everything written so far, as text.
    public var text: String { String(decoding: writes.joined(), as: UTF8.self) }

    /// Forgets the writes so far.
    public func clear() {
        state.withLock { $0.writes = [] }
    }

    /// The size now (``Terminal/size()``).
    public func size() -> TerminalSize? { state.withLock { $0.size } }

    /// Writes `bytes` (``Terminal/write(_:)``).
    public func write(_ bytes: [UInt8]) {
        state.withLock { $0.writes.append(bytes) }
    }
}
