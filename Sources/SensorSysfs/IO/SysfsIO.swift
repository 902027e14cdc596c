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

    /// Opens each of `names` in `directory`, reads it like ``read(_:into:)`` into consecutive
    /// `stride`-byte slots of `buffer` and closes it; stores each result in `lengths` (the
    /// byte count, or `-errno` of the open or the read). An entry whose length is negative
    /// on entry is skipped and keeps it. Before each open (which may block as a read does)
    /// it sets `progress.index` to that file's position, and once `progress` is abandoned it
    /// opens nothing more (the rest get `-ECANCELED`).
    ///
    /// One call for the label and limit files of a whole chip at discovery: the real
    /// implementation opens each relative to the directory in one C loop, and a guarded one
    /// takes its lock once for the batch, not three times per file.
    func readFiles(
        in directory: String, names: SysfsFileList, into buffer: UnsafeMutableRawBufferPointer, stride: Int,
        lengths: UnsafeMutableBufferPointer<Int>, progress: SysfsReadProgress)

    /// Whether `path` is a file whose read blocked and has not returned (it is then not
    /// opened: `open` fails at once). Plain system calls know of none.
    func isBlocked(_ path: String) -> Bool
}

extension SysfsIO {
    /// No file is known to block.
    public func isBlocked(_ path: String) -> Bool { false }

    /// Calls ``open(_:)``, ``read(_:into:)`` and ``close(_:)`` for each file (test doubles
    /// get it for free).
    public func readFiles(
        in directory: String, names: SysfsFileList, into buffer: UnsafeMutableRawBufferPointer, stride: Int,
        lengths: UnsafeMutableBufferPointer<Int>, progress: SysfsReadProgress
    ) {
        for i in 0..<names.count where lengths[i] >= 0 {
            if progress.isAbandoned {
                for j in i..<names.count where lengths[j] >= 0 { lengths[j] = -Int(ECANCELED) }
                return
            }
            progress.index = i
            let fd = open(directory + "/" + names[i])
            if fd < 0 {
                lengths[i] = Int(fd)
                continue
            }
            lengths[i] = read(
                fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[(i * stride)..<((i + 1) * stride)]))
            close(fd)
        }
    }

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
