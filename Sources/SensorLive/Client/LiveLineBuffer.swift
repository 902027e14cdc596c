/// Splits bytes read from a stream socket into lines, holding at most one line's worth:
/// what a peer sends without a newline cannot grow it past ``limit``.
public struct LiveLineBuffer: Sendable {
    /// The longest line taken, in bytes (without the newline).
    public let limit: Int
    private var pending: [UInt8] = []
    /// Where the next line starts in `pending`.
    private var start = 0
    /// The most storage kept once it is empty: one read's worth. A snapshot's line (megabytes
    /// of history) would otherwise stay resident for the whole session (`top`'s 10 MiB).
    static let keptCapacity = 128 * 1024

    /// How many bytes its storage holds now (a test sees it given back).
    var capacity: Int { pending.capacity }

    /// A buffer that refuses lines longer than `limit` bytes.
    public init(limit: Int) { self.limit = limit }

    /// Whether bytes of an unfinished line are held.
    public var hasPartialLine: Bool { start < pending.count }

    /// Takes bytes read.
    ///
    /// - Throws: ``LiveProtocolError`` when the unfinished line is longer than ``limit``.
    public mutating func append(_ bytes: some Sequence<UInt8>) throws(LiveProtocolError) {
        if start > 0 && start == pending.count {
            pending.removeAll(keepingCapacity: pending.capacity <= Self.keptCapacity)
            start = 0
        }
        pending.append(contentsOf: bytes)
        let tail = pending[start...]
        let unfinished = tail.lastIndex(of: 10).map { pending.count - $0 - 1 } ?? tail.count
        if unfinished > limit { throw LiveProtocolError("a line longer than \(limit) bytes") }
    }

    /// The next whole line (without its newline), or nil when none is complete.
    public mutating func nextLine() throws(LiveProtocolError) -> String? {
        guard let end = pending[start...].firstIndex(of: 10) else {
            if start > 0 {
                if pending.capacity > Self.keptCapacity {
                    pending = Array(pending[start...])
                } else {
                    pending.removeFirst(start)
                }
                start = 0
            }
            return nil
        }
        if end - start > limit { throw LiveProtocolError("a line longer than \(limit) bytes") }
        let line = String(decoding: pending[start..<end], as: UTF8.self)
        start = end + 1
        return line
    }
}
