#if canImport(Glibc)
public import Glibc
#endif

/// Lends out `iovec`s over a list of strings, for `sd_journal_sendv` and the like.
///
/// Every string's bytes are packed into one buffer, and the `iovec`s pointing into it are
/// built and used inside the buffer's one `withUnsafeBufferPointer` scope: no pointer
/// outlives the storage it points into (the dangling-pointer flaw of some published
/// wrappers, which keep a `baseAddress` past its closure).
public enum IovecPacking {
    /// Calls `body` with one `iovec` per string, in order, without the strings' NULs.
    ///
    /// - Important: the pointers are valid only during `body`; the callee must not keep them.
    public static func withIovecs<R>(_ strings: [String], _ body: (UnsafeBufferPointer<iovec>) -> R) -> R {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(strings.reduce(0) { $0 + $1.utf8.count })
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(strings.count)
        for s in strings {
            let start = bytes.count
            bytes.append(contentsOf: s.utf8)
            ranges.append(start..<bytes.count)
        }
        return bytes.withUnsafeMutableBufferPointer { buf in
            let base = buf.baseAddress
            let vecs = ranges.map { r in
                // An empty buffer has no base address; a zero-length iovec needs none.
                iovec(iov_base: base.map { UnsafeMutableRawPointer($0 + r.lowerBound) }, iov_len: r.count)
            }
            return vecs.withUnsafeBufferPointer(body)
        }
    }
}
