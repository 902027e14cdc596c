import CLinux
import Glibc
public import SensorRuntime
import Synchronization

#if canImport(Glibc)
#endif

/// A client's connection to the daemon's live stream (SPEC §22): `watch`, `top` and `mqtt`
/// read the daemon through it.
///
/// ```swift
/// let path = LiveSocketPath.client(configuration.liveSocket)   // nil: liveSocket false
/// let connection = try LiveConnection(path: path!, subscription: LiveSubscription(sensors: [glob]))
/// var state = LiveState()
/// for try await message in connection.messages() {             // hello, snapshot, change…
///     state.apply(message)                                       // sensors, alerts, silences, history
/// }                                                              // ends when the daemon goes
/// connection.close()                                             // from any thread: ends the loop promptly
/// ```
///
/// Reads block on a thread of their own (``messages()``, a ``DetachedThread``) or on the
/// caller's (``readMessage()``); ``close()`` from any thread (a signal handler's task) shuts
/// the socket down, so a blocked read returns at once. A line longer than
/// ``LiveMessage/maximumLineBytes`` or one that is not a message ends the stream with a
/// ``LiveProtocolError``; memory stays bounded by one line.
public final class LiveConnection: Sendable {
    /// How a connection that could not be made is said: `cannot connect to
    /// /run/sensorwatch/live.sock: No such file or directory`.
    public static let connecting = SystemError.Operation.phrased("connect", as: "cannot connect to")

    /// Whether `failure` (of ``init(path:subscription:)``) means no daemon listens there (no
    /// socket file, or nobody behind it): a client says so once and waits for one.
    public static func daemonAbsent(_ failure: SystemError) -> Bool {
        failure.errno == ENOENT || failure.errno == ECONNREFUSED
    }

    private struct State {
        var closed = false
        var lines: LiveLineBuffer
    }

    private let state: Mutex<State>
    /// The socket's descriptor (kept apart from the state: ``close()`` must not wait for a
    /// read in progress, which holds no lock).
    private let fd: Int32

    /// Connects to the socket at `path` and, when `subscription` is given, sends it as the
    /// first line (within the daemon's 200 ms).
    ///
    /// - Throws: ``SystemError`` (``connecting``).
    public init(path: String, subscription: LiveSubscription? = nil) throws(SystemError) {
        let fd = sw_stream_connect(path)
        guard fd >= 0 else { throw SystemError(Self.connecting, path: path, errno: -fd) }
        if let subscription {
            let bytes = Array((subscription.line + "\n").utf8)
            let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent != bytes.count {
                let e = errno
                Glibc.close(fd)
                throw SystemError(Self.connecting, path: path, errno: e)
            }
        }
        self.fd = fd
        state = Mutex(State(lines: LiveLineBuffer(limit: LiveMessage.maximumLineBytes)))
    }

    deinit {
        close()
        Glibc.close(fd)
    }

    /// Ends the connection: a read blocked in ``readMessage()`` or ``messages()`` returns
    /// (the stream finishes). Safe from any thread, more than once.
    public func close() {
        let first = state.withLock { s -> Bool in
            defer { s.closed = true }
            return !s.closed
        }
        if first { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    /// The next message, blocking the calling thread; nil when the daemon closed the
    /// connection (or ``close()`` was called).
    ///
    /// - Throws: ``LiveProtocolError`` for a line that is not a message (or too long), or
    ///   a read error.
    public func readMessage() throws(LiveProtocolError) -> LiveMessage? {
        var chunk = [UInt8](repeating: 0, count: Self.chunkBytes)
        return try readMessage(using: &chunk)
    }

    /// The most bytes one read takes from the socket.
    static let chunkBytes = 65536

    /// ``readMessage()`` reading into `chunk`, which the reader thread keeps: a new 64 KiB
    /// buffer a message was zeroed each time, and with `top`'s malloc settings mapped and
    /// unmapped each time too.
    func readMessage(using chunk: inout [UInt8]) throws(LiveProtocolError) -> LiveMessage? {
        while true {
            if let line = try state.withLock({ s throws(LiveProtocolError) in try s.lines.nextLine() }) {
                return try LiveMessage.decode(line)
            }
            if state.withLock({ $0.closed }) { return nil }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 {
                if errno == EINTR { continue }
                if state.withLock({ $0.closed }) { return nil }
                throw LiveProtocolError("cannot read the stream: \(ErrnoText.words(errno))")
            }
            if n == 0 {
                let partial = state.withLock { $0.lines.hasPartialLine }
                if partial && !state.withLock({ $0.closed }) {
                    throw LiveProtocolError("the stream ended within a line")
                }
                return nil
            }
            try state.withLock { s throws(LiveProtocolError) in try s.lines.append(chunk[0..<n]) }
        }
    }

    /// How many messages the reader thread reads ahead of the consumer (a few changes, or
    /// the snapshot): beyond them it reads nothing, and the daemon coalesces.
    static let readAhead = 8

    /// The messages, read on a thread of their own until the daemon closes the connection,
    /// a bad line (the stream then throws), or ``close()``; ending the iteration (a
    /// cancelled task, or the stream let go) closes the connection.
    ///
    /// The thread reads at the consumer's pace: at most ``readAhead`` messages wait for it,
    /// and while they do the thread reads nothing, so the rest stays in the socket and a
    /// slow consumer's memory is bounded (SPEC §22: the daemon then sends the latest state,
    /// coalesced).
    ///
    /// - Important: call it once a connection.
    public func messages() -> AsyncThrowingStream<LiveMessage, any Error> {
        messages(through: LiveMessageChannel(capacity: Self.readAhead))
    }

    /// ``messages()`` through `channel` (a test looks at it).
    func messages(through channel: LiveMessageChannel) -> AsyncThrowingStream<LiveMessage, any Error> {
        do {
            try DetachedThread.start("live stream reader") { [self] in
                do {
                    var chunk = [UInt8](repeating: 0, count: Self.chunkBytes)
                    while channel.waitForRoom(), let message = try readMessage(using: &chunk) { channel.send(message) }
                    channel.finish(nil)
                } catch {
                    channel.finish(error)
                }
            }
        } catch {
            channel.finish(error)
        }
        let end = Release { [self] in
            close()
            channel.cancel()
        }
        return AsyncThrowingStream {
            try await withTaskCancellationHandler {
                try await channel.receive()
            } onCancel: {
                end.run()
            }
        }
    }

    /// Runs its action when let go (the stream's iteration ended) or when asked: the
    /// connection ends either way, as `onTermination` would end it.
    private final class Release: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
        deinit { run() }
    }
}
