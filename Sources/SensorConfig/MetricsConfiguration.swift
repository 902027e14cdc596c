import SensorRuntime

/// The `metrics` section: where and how often `run` writes the Prometheus textfile (SPEC §12).
public struct MetricsConfiguration: Sendable, Hashable {
    /// The default of `interval`.
    public static let defaultInterval: Duration = .seconds(15)

    /// The file node_exporter's textfile collector reads, absolute; its name ends in `.prom`.
    public var textfile: String
    /// How often the file is rewritten.
    public var interval: Duration

    /// A section of the given fields; `textfile` is taken as it is, the loader checks it.
    public init(textfile: String, interval: Duration = MetricsConfiguration.defaultInterval) {
        self.textfile = textfile
        self.interval = interval
    }

    /// The temporary file each write goes to before the rename: in the same directory (a
    /// rename never crosses file systems), hidden, and not ending in `.prom`, since
    /// node_exporter reads every `*.prom` in its directory, a half-written one included.
    public var temporaryFile: String { ConfigPath.hiddenSibling(of: textfile, suffix: ".tmp") }
}
