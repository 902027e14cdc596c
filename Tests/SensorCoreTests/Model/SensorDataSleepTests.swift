@testable import SensorCore
@testable import SensorDaemon
@testable import SensorRuntime
import Testing

/// A sleeping sensor in the daemon's model (SPEC §20): no fault, its last value kept, and
/// `asleep` in what the status file and the metrics are made of.
@DaemonActor
struct SensorDataSleepTests {
    @Test func aSensorThatFallsAsleepKeepsItsValueIsNoFaultAndIsAsleepInStatusAndMetrics() {
        let gpu = SensorInfo(id: "hwmon:amdgpu-pci-0100/temp1", label: "edge", quantity: .temperature)
        let cpu = SensorInfo(id: "hwmon:coretemp-isa-0000/temp1", label: "", quantity: .temperature)
        let list = SensorList(source: "0", sensors: [gpu, cpu])
        let data = SensorData()
        data.commit(PollCycle(list: list, readings: SensorValues(time: .seconds(1), values: [48, 40])))
        var asleep = SensorValues(time: .seconds(2), capacity: 2)
        asleep.appendAsleep()
        asleep.append(41)
        data.commit(PollCycle(list: list, readings: asleep))
        #expect(data.faulty.isEmpty)
        let engine = RuleEngine(rules: [])
        func status() -> [String] {
            StatusReport(
                version: "t", pid: 1, started: 100, updated: 103, data: data, engine: engine, firingSince: { _ in nil }
            )
            .sensors.map { "\($0.id) \($0.value.map { "\($0)" } ?? "-") ok=\($0.ok) asleep=\($0.asleep)" }
        }
        #expect(
            status() == [
                "hwmon:amdgpu-pci-0100/temp1 48.0 ok=true asleep=true",
                "hwmon:coretemp-isa-0000/temp1 41.0 ok=true asleep=false",
            ])
        let metrics = MetricsSnapshot(
            version: "t", startTime: 100, readings: data.readings, engine: engine, eventCount: { _, _ in 0 })
        #expect(metrics.groups.map(\.asleep) == [[0]])
        #expect(metrics.groups.map(\.up) == [[true, true]])
        // Awake: read again, and no longer asleep.
        data.commit(PollCycle(list: list, readings: SensorValues(time: .seconds(3), values: [50, 42])))
        #expect(
            status() == [
                "hwmon:amdgpu-pci-0100/temp1 50.0 ok=true asleep=false",
                "hwmon:coretemp-isa-0000/temp1 42.0 ok=true asleep=false",
            ])
    }
}
