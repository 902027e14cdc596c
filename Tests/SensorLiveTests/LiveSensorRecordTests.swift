import SensorCore
import SensorRuntime
import Testing

@testable import SensorLive

/// The stream's sensor is the status file's record plus its alarms: one record, two wire forms.
@Suite struct LiveSensorRecordTests {
    static let record = StatusSensor(
        id: "hwmon:coretemp.0/temp1", label: "Package id 0", quantity: "temperature", unit: "°C", value: 45.5,
        time: 100, ok: true, error: nil, limits: StatusLimits(max: 80, crit: 100))

    @Test func aLiveSensorMadeFromTheStatusRecordEqualsOneGivenFieldByField() {
        let made = LiveSensor(status: Self.record, alarms: ["max"])
        let given = LiveSensor(
            id: "hwmon:coretemp.0/temp1", label: "Package id 0", quantity: "temperature", unit: "°C", value: 45.5,
            time: 100, limits: ["crit": 100, "max": 80], alarms: ["max"])
        #expect(made == given)
        #expect(made.value == 45.5 && made.label == "Package id 0" && made.limits == ["max": 80, "crit": 100])
    }

    @Test func aSensorWithoutLimitsHasNoneInItsRecordAndNullOnTheWire() throws {
        let sensor = LiveSensor(id: "a:b", quantity: "temperature", unit: "°C", limits: [:])
        #expect(sensor.status.limits == nil)
        #expect(JSONWriter.text(sensor.json).contains(#""limits":null"#))
        #expect(try LiveSensor(json: sensor.json, path: "s") == sensor)
    }

    @Test func settingAFieldSetsItInTheRecord() {
        var sensor = LiveSensor(status: Self.record)
        sensor.value = 50
        sensor.limits = [:]
        #expect(sensor.status.value == 50 && sensor.status.limits == nil)
    }
}
