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
}
