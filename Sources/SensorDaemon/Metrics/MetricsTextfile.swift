import SensorConfig
import SensorRuntime
import Synchronization

/// Renders snapshots into one textfile and replaces it atomically (``AtomicFileWriter``).
///
/// The text goes to ``MetricsConfiguration/temporaryFile`` in the same directory (a name
/// node_exporter does not read), gets mode 0644 whatever the umask (the unit's
/// `UMask=0077` would leave it unreadable to node_exporter), and takes the file's place by
/// an exchange that keeps the replaced file for the next write to reuse. No fsync: the file
/// describes the running process and is worthless after a crash.
final class MetricsTextfile: Sendable {
    let configuration: MetricsConfiguration
    /// Kept between writes: it reuses what the sensor and alert lists fix.
    private let renderer = Mutex(PrometheusRenderer())
    private let writer: AtomicFileWriter

    init(configuration: MetricsConfiguration) {
        self.configuration = configuration
        writer = AtomicFileWriter(
            path: configuration.textfile,
            options: AtomicFileWriter.Options(temporary: .named(configuration.temporaryFile), reusesReplaced: true))
    }

    /// Renders and writes `snapshot`, on the calling thread: handing the work to another
    /// thread cost more in wake-ups than it saved; nil on success, else what failed.
    func publish(_ snapshot: MetricsSnapshot) -> String? {
        renderer.withLock { renderer in
            renderer.withRendered(snapshot) { text -> String? in
                do throws(SystemError) {
                    try writer.write(text)
                    return nil
                } catch {
                    return error.description
                }
            }
        }
    }

    /// Removes the file and a temporary file a failed write left.
    func remove() { writer.remove() }
}
