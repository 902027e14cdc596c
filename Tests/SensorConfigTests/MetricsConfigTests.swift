@testable import SensorConfig
import SensorTestKit
import Testing

/// The `metrics` section of the configuration (SPEC §12).
struct MetricsConfigTests {
    @Test(arguments: [
        ("{ metrics: {} }", "metrics.textfile: required key is missing"),
        ("{ metrics: \"m.prom\" }", "metrics: expected an object, found a string"),
        ("{ metrics: { textfile: 3 } }", "metrics.textfile: expected a string, found a number"),
        ("{ metrics: { textfile: \"m.prom\", interval: \"0s\" } }", "metrics.interval: must be longer than 0s"),
        (
            "{ metrics: { textfile: \"m.prom\", intervall: \"5s\" } }",
            "metrics.intervall: unknown key (did you mean \"interval\"?)"
        ),
        (
            "{ metrics: { textfile: \"m.txt\" } }",
            "metrics.textfile: must name a file ending in .prom (node_exporter's textfile collector reads only those)"
        ),
        (
            "{ metrics: { textfile: \"dir/.prom\" } }",
            "metrics.textfile: must name a file ending in .prom (node_exporter's textfile collector reads only those)"
        ),
        (
            "{ metrics: { textfile: \"m.prom/\" } }",
            "metrics.textfile: must name a file ending in .prom (node_exporter's textfile collector reads only those)"
        ),
    ])
    func reportsEachProblemAtItsKeyPath(text: String, expected: String) {
        #expect(TemporaryDirectory.configErrors(of: text) == ["c.json5: " + expected])
    }

    @Test func relativeTextfileIsRelativeToTheConfigFileAndIntervalDefaultsTo15s() throws {
        let files = TemporaryDirectory()
        let path = files.write("etc/c.json5", "{ metrics: { textfile: \"../run/sensorwatch.prom\" } }")
        let config = try ConfigLoader.load(path: path)
        #expect(
            config.metrics == MetricsConfiguration(textfile: files.path("run/sensorwatch.prom"), interval: .seconds(15))
        )
    }

    @Test func absoluteTextfileAndIntervalAreKept() throws {
        let files = TemporaryDirectory()
        let path = files.write(
            "c.json5", "{ metrics: { textfile: \"/run/sensorwatch/sensorwatch.prom\", interval: \"1s\" } }")
        let config = try ConfigLoader.load(path: path)
        #expect(config.metrics?.textfile == "/run/sensorwatch/sensorwatch.prom")
        #expect(config.metrics?.interval == .seconds(1))
        #expect(try ConfigLoader.load(path: files.write("d.json5", "{}")).metrics == nil)
    }

    /// The installed configuration writes into the unit's RuntimeDirectory, which the
    /// tmpfiles.d link makes visible to Debian's node_exporter.
    @Test func shippedExampleWritesIntoTheRuntimeDirectory() throws {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        let config = try ConfigLoader.load(path: path + "/config/sensorwatch.example.json5")
        #expect(
            config.metrics
                == MetricsConfiguration(textfile: "/run/sensorwatch/sensorwatch.prom", interval: .seconds(15)))
    }

    /// node_exporter reads every `*.prom` in its directory, a half-written one too.
    @Test func temporaryFileIsHiddenInTheSameDirectoryAndNotReadByNodeExporter() {
        let config = MetricsConfiguration(textfile: "/run/sensorwatch/sensorwatch.prom")
        #expect(config.temporaryFile == "/run/sensorwatch/.sensorwatch.prom.tmp")
        #expect(MetricsConfiguration(textfile: "m.prom").temporaryFile == ".m.prom.tmp")
    }
}
