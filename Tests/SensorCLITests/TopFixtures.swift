import SensorCore
import SensorLive

/// Hand-made stream messages for `top`'s tests.
enum TopFixtures {
    static let t0 = 1_800_000_000.0

    static let hello = LiveMessage.hello(LiveHello(host: "web1", pid: 42, started: t0 - 3 * 86400 - 3600))

    static func sensor(
        _ id: String, _ label: String = "", value: Double? = 55, unit: String = "°C", limits: [String: Double] = [:]
    ) -> LiveSensor {
        LiveSensor(id: id, label: label, quantity: "temperature", unit: unit, value: value, time: t0, limits: limits)
    }

    static let sensors = [
        sensor("hwmon:coretemp-isa-0000/temp1", "Package id 0", value: 55, limits: ["max": 80, "crit": 100]),
        sensor("hwmon:coretemp-isa-0000/temp2", "Core 0", value: 50, limits: ["max": 80, "crit": 100]),
        sensor("hwmon:nct6775-isa-0290/fan1", "CPU fan", value: 1200, unit: "rpm"),
        sensor("thermal:acpitz", "acpitz", value: 40),
    ]

    static let firing = LiveAlert(
        rule: "cpu-hot", sensor: "hwmon:coretemp-isa-0000/temp1", severity: "critical", state: .firing, since: t0 - 60,
        value: 55, threshold: 50)

    static func snapshot(alerts: [LiveAlert] = [firing]) -> LiveMessage {
        var history: [String: [LiveBucket]] = [:]
        for s in sensors {
            history[s.id] = (0..<120).map { i in
                let v = (s.value ?? 0) + Double(i % 10)
                return LiveBucket(time: LiveBucket.start(of: t0) - Int64(119 - i) * 5, min: v, max: v, last: v)
            }
        }
        return .snapshot(LiveSnapshot(sensors: sensors, alerts: alerts, history: history))
    }

    static func state(alerts: [LiveAlert] = [firing]) -> LiveState {
        var s = LiveState()
        s.apply(hello)
        s.apply(snapshot(alerts: alerts))
        return s
    }
}
