#if canImport(Glibc)
import Glibc
#endif

/// The system calls the sysfs readers make, behind one seam so tests can inject failures.
///
/// Results follow the kernel's convention rather than Swift errors, so the hot path
/// allocates nothing: a non-negative value is the result, a negative one is `-errno`.
/// Implementations must be thread-safe; each reader calls them from its own thread, and
/// any call may block for as long as the driver behind the file does.
public protocol SysfsIO: Sendable {
    /// Opens `path` read-only; returns the descriptor, or `-errno`.
    func open(_ path: String) -> Int32

    /// Reads up to `buffer.count` bytes from offset 0 of `fd` (sysfs re-runs the
    /// attribute's `show()` for every read at offset 0); returns the byte count, or `-errno`.
    func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int

    /// Closes a descriptor returned by `open`.
    func close(_ fd: Int32)

    /// Reads each of `fds` like ``read(_:into:)``, into consecutive `stride`-byte slots of
    /// `buffer`, and stores each result in `lengths` (a negative fd gives `-EBADF`).
    /// Before each read it sets `progress.index` to that read's position, and once
    /// `progress` is abandoned it reads nothing more (the rest gets `-ECANCELED`).
    ///
    /// One call per poll: the real implementation is a bare loop of `pread`, so nothing
    /// between two reads evicts the kernel's structures from the cache.
    func readAll(
        _ fds: UnsafeBufferPointer<Int32>, into buffer: UnsafeMutableRawBufferPointer, stride: Int,
        lengths: UnsafeMutableBufferPointer<Int>, progress: SysfsReadProgress)

    /// Whether `path` is a file whose read blocked and has not returned (it is then not
    /// opened: `open` fails at once). Plain system calls know of none.
    func isBlocked(_ path: String) -> Bool
}

extension SysfsIO {
    /// No file is known to block.
    public func isBlocked(_ path: String) -> Bool { false }

    /// Calls ``read(_:into:)`` for each descriptor (test doubles get it for free).
    public func readAll(
        _ fds: UnsafeBufferPointer<Int32>, into buffer: UnsafeMutableRawBufferPointer, stride: Int,
        lengths: UnsafeMutableBufferPointer<Int>, progress: SysfsReadProgress
    ) {
        for i in fds.indices {
            if progress.isAbandoned {
                for j in i..<fds.count { lengths[j] = -Int(ECANCELED) }
                return
            }
            progress.index = i
            let slot = UnsafeMutableRawBufferPointer(rebasing: buffer[(i * stride)..<((i + 1) * stride)])
            lengths[i] = fds[i] < 0 ? -Int(EBADF) : read(fds[i], into: slot)
        }
    }
}
