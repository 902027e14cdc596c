#if canImport(Glibc)
import Glibc
#endif
import CLinux
/// The real ``SysfsIO``: `open(2)`, `pread(2)` at offset 0, `close(2)`.
public struct PosixSysfsIO: SysfsIO {
    /// The real system calls; stateless.
    public init() {}

    /// `open(path, O_RDONLY | O_CLOEXEC)`, retried on EINTR; may block (a FIFO, a stuck driver).
    public func open(_ path: String) -> Int32 {
        while true {
            let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            if fd >= 0 { return fd }
            if errno != EINTR { return -errno }
        }
    }

    /// One `pread(fd, buffer, count, 0)`, retried on EINTR.
    public func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let n = pread(fd, buffer.baseAddress, buffer.count, 0)
            if n >= 0 { return n }
            if errno != EINTR { return -Int(errno) }
        }
    }

    /// `pread(fd, slot, stride, 0)` for each descriptor, retried on EINTR, as one C loop
    /// of raw system calls (see `sw_pread_all`: glibc's `pread` is a cancellation point).
    public func readAll(
        _ fds: UnsafeBufferPointer<Int32>, into buffer: UnsafeMutableRawBufferPointer, stride: Int,
        lengths: UnsafeMutableBufferPointer<Int>, progress: SysfsReadProgress
    ) {
        precondition(buffer.count >= fds.count * stride && lengths.count >= fds.count)
        guard let fdBase = fds.baseAddress, let base = buffer.baseAddress, let out = lengths.baseAddress else { return }
        sw_pread_all(fdBase, fds.count, base.assumingMemoryBound(to: UInt8.self), stride, out, progress.pointer)
    }

    /// `openat`, `pread` and `close` for each file, relative to one descriptor of
    /// `directory`, as one C loop of raw system calls (`sw_read_files_at`).
    public func readFiles(
        in directory: String, names: SysfsFileList, into buffer: UnsafeMutableRawBufferPointer, stride: Int,
        lengths: UnsafeMutableBufferPointer<Int>, progress: SysfsReadProgress
    ) {
        precondition(buffer.count >= names.count * stride && lengths.count >= names.count)
        guard names.count > 0, let base = buffer.baseAddress, let out = lengths.baseAddress else { return }
        names.bytes.withUnsafeBufferPointer { packed in
            packed.withMemoryRebound(to: CChar.self) { packed in
                sw_read_files_at(
                    directory, packed.baseAddress, names.count, base.assumingMemoryBound(to: UInt8.self), stride, out,
                    progress.pointer)
            }
        }
    }

    /// `close(fd)`.
    public func close(_ fd: Int32) {
        // No retry on EINTR: on Linux the descriptor is gone either way.
        _ = Glibc.close(fd)
    }
}
