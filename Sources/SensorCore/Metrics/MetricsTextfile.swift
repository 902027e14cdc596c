#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Renders snapshots into one textfile and replaces it atomically.
///
/// The text goes to ``MetricsConfiguration/temporaryFile`` in the same directory (a name
/// node_exporter does not read), is given mode 0644 with `fchmod` (the unit's
/// `UMask=0077` would leave it unreadable to node_exporter), and is renamed over the file.
/// No fsync: the file describes the running process and is worthless after a crash.
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
    static func replace(_ path: String, via temporary: String, with text: UnsafeBufferPointer<UInt8>) -> String? {
        func failure(_ step: String, _ file: String) -> String {
            "\(step) \(file): \(String(cString: strerror(errno)))"
        }
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { return failure("open", temporary) }
        var problem: String?
        if !FileDescriptorWriter.writeAll(fd, text) {
            problem = failure("write", temporary)
        } else if fchmod(fd, 0o644) != 0 {
            problem = failure("chmod", temporary)
        }
        close(fd)
        if problem == nil, rename(temporary, path) != 0 { problem = failure("rename to", path) }
        if problem != nil { unlink(temporary) }
        return problem
    }
}
