#if canImport(Glibc)
import Glibc
#endif
@testable import SensorConfig
@testable import SensorCore
@testable import SensorDaemon
@testable import SensorRuntime
import SensorTestKit
import Testing

/// `run` with a `metrics` section keeps the textfile written from the live state and
/// removes it at a clean stop (SPEC §12).
@DaemonActor
@Suite(.timeLimit(.minutes(1)))
struct DaemonMetricsTests {
    @Test func fileShowsValuesHealthAlertsAndEventCountsAndGoesAtStop() async {
        let dir = TemporaryDirectory()
        let cpu = SensorInfo(id: "sim:cpu", label: "CPU", quantity: .temperature)
        let reader = ScriptedReader(cpu, [50, 85, nil, nil])
        let rule = Rule(name: "hot", selector: SensorSelector(), condition: .above(80, hysteresis: 0))
        let metrics = MetricsConfiguration(textfile: dir.path("sensorwatch.prom"), interval: .seconds(1))
        let configuration = Configuration(
            path: "test.json5", sources: [SourceConfiguration(kind: .simulated, interval: .seconds(1))], rules: [rule],
            metrics: metrics)
        let clock = VirtualClock()
        let env = Daemon<VirtualClock>.Environment(
            sink: MemoryAlertSink(), reload: { configuration }, wallClock: ManualWallClock(WallTime(seconds: 1000)),
            makeReader: { _ in reader },
            version: "9.9")
        let daemon = Daemon(configuration: configuration, environment: env, clock: clock)
        let run = Task { @DaemonActor in await daemon.run() }
        for n in 1...3 {
            // Poller and metrics writer both wait on the clock.
            #expect(await reader.polls.until(n))
            #expect(await clock.until { $0.sleeperCount >= 2 })
            clock.advance(by: .seconds(1))
        }
        await eventually {
            (TemporaryDirectory.readFile(metrics.textfile) ?? "").contains(
                "sensorwatch_sensor_up{sensor=\"sim:cpu\",quantity=\"temperature\"} 0")
        }
        let text = (TemporaryDirectory.readFile(metrics.textfile) ?? "")
        for line in [
            "sensorwatch_build_info{version=\"9.9\"} 1",
            "sensorwatch_start_time_seconds 1000",
            "sensorwatch_temperature_celsius{sensor=\"sim:cpu\",label=\"CPU\"} 85",
            "sensorwatch_sensor_last_reading_timestamp_seconds{sensor=\"sim:cpu\"} 1001",
            "sensorwatch_alert_firing{rule=\"hot\",sensor=\"sim:cpu\",severity=\"warning\"} 1",
            "sensorwatch_alert_events_total{rule=\"hot\",event=\"firing\"} 1",
        ] {
            #expect(text.contains(line + "\n"), "\(line) in\n\(text)")
        }
        daemon.requestStop()
        #expect(await run.value(within: .seconds(10)) != nil, "the daemon did not stop")
        #expect(dir.names().isEmpty)
    }
}
