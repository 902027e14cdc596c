import SensorRuntime

/// Renders a ``MetricsSnapshot`` in the Prometheus text exposition format (0.0.4), as
/// node_exporter's textfile collector reads it (SPEC §12).
///
/// node_exporter drops a whole file for one line it refuses, silently but for
/// `node_textfile_scrape_error`, so the output keeps to what it accepts: `# HELP` and
/// `# TYPE` before every family, no sample timestamps, label values escaped (`\\`, `\"`,
/// `\n`), base units (°C, ratio, Pa, seconds), and no family without samples. Families come
/// in a fixed order and series sorted by their labels, so equal snapshots give equal bytes.
public enum PrometheusExposition {
    /// The text of `snapshot`, ending in a newline (see ``PrometheusRenderer``, which the
    /// daemon keeps to render the same text cheaply again and again).
    public static func render(_ snapshot: MetricsSnapshot) -> String {
        String(decoding: PrometheusRenderer().render(snapshot), as: UTF8.self)
    }

    /// A label value escaped as the format requires: backslash, double quote, line feed.
    public static func escape(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == 0x5C || $0 == 0x22 || $0 == 0x0A }) else { return value }
        return value.replacingScalars { c in
            switch c {
            case "\\": "\\\\"
            case "\"": "\\\""
            case "\n": "\\n"
            default: nil
            }
        }
    }

    /// A sample value as the format spells it (`+Inf`, not Swift's `inf`).
    static func number(_ v: Double) -> String {
        if v.isNaN { return "NaN" }
        if v.isInfinite { return v > 0 ? "+Inf" : "-Inf" }
        return NumberText.number(v)
    }
}
