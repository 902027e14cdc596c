#if canImport(Glibc)
import Glibc
#endif
import CLinux
import Synchronization

/// Renders snapshots into one textfile and replaces it atomically.
///
/// The text goes to ``MetricsConfiguration/temporaryFile`` in the same directory (a name
/// node_exporter does not read), is given mode 0644 with `fchmod` (the unit's
/// `UMask=0077` would leave it unreadable to node_exporter), and takes the file's place
/// atomically (see ``replace(_:via:with:)``: the temporary name then keeps the previous
/// file, to be overwritten next time). No fsync: the file describes the running process
/// and is worthless after a crash.
final class MetricsTextfile: Sendable {
    let configuration: MetricsConfiguration
    /// Kept between writes: it reuses what the sensor and alert lists fix.
    private let renderer = Mutex(PrometheusRenderer())

    init(configuration: MetricsConfiguration) {
        self.configuration = configuration
    }

    /// Renders and writes `snapshot`, on the calling thread: handing the work to another
    /// thread cost more in wake-ups than it saved; nil on success, else what failed.
    func publish(_ snapshot: MetricsSnapshot) -> String? {
        renderer.withLock { renderer in
            renderer.withRendered(snapshot) { text in
                Self.replace(configuration.textfile, via: configuration.temporaryFile, with: text)
            }
        }
    }

    /// Removes the file and a temporary file a failed write left.
    func remove() {
        unlink(configuration.textfile)
        unlink(configuration.temporaryFile)
    }

    /// Replaces `path` with `text` through `temporary`; nil on success, else what failed.
    ///
    /// The two names are exchanged, not renamed: afterwards `temporary` keeps the file that
    /// `path` named, and the next call overwrites that file where it stands (its pages
    /// reused, not allocated and freed again a second later: about half of a write's
    /// kernel time at a thousand sensors). Only when nobody has it open any more: a reader
    /// still at it (`less` on the file) gets a new file instead, and so does a file system
    /// without exchange or leases (a plain temp file and rename). Either way `path` is
    /// always a whole file.
    static func replace(_ path: String, via temporary: String, with text: UnsafeBufferPointer<UInt8>) -> String? {
        func failure(_ step: String, _ file: String) -> String {
            "\(step) \(file): \(ErrnoText.words(errno))"
        }
        var fd = open(temporary, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        if fd >= 0, sw_is_sole_opener(fd) != 1 {
            close(fd)
            fd = -1
        }
        if fd < 0 {
            // Not reusable (still read, no leases, or not a file: a symbolic link is removed,
            // not followed): a new file.
            unlink(temporary)
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
            guard fd >= 0 else { return failure("open", temporary) }
        }
        var problem: String?
        if !FileDescriptorWriter.writeAll(fd, text) {
            problem = failure("write", temporary)
        } else if ftruncate(fd, off_t(text.count)) != 0 {
            problem = failure("truncate", temporary)
        } else if fchmod(fd, 0o644) != 0 {
            problem = failure("chmod", temporary)
        }
        close(fd)
        if problem == nil {
            let exchanged = sw_rename_exchange(temporary, path)
            // No file yet (the first write), or no exchange here: a rename.
            if exchanged != 0, rename(temporary, path) != 0 { problem = failure("rename to", path) }
        }
        if problem != nil { unlink(temporary) }
        return problem
    }
}
