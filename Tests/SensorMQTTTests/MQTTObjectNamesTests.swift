import Testing
import SensorMQTT

/// `<object>` names (SPEC §24): safe characters, unique with `_2`, `_3`, stable per key.
struct MQTTObjectNamesTests {
    @Test func replacesEveryCharacterOutsideTheSafeSet() {
        #expect(MQTTObjectNames.safe("hwmon:coretemp-isa-0000/temp1") == "hwmon_coretemp-isa-0000_temp1")
        #expect(MQTTObjectNames.safe("sim:Zone °C/x y") == "sim_Zone__C_x_y")
        #expect(MQTTObjectNames.safe("a+b#c\nd") == "a_b_c_d")
        #expect(MQTTObjectNames.safe("") == "_")
    }

    @Test func collisionsGetASuffixAndEveryKeyKeepsItsName() {
        var names = MQTTObjectNames()
        #expect(names.name(for: "sim:a.b") == "sim_a_b")
        #expect(names.name(for: "sim:a/b") == "sim_a_b_2")
        #expect(names.name(for: "sim_a_b") == "sim_a_b_3")
        #expect(names.name(for: "sim:a.b") == "sim_a_b")
        #expect(names.name(for: MQTTObjectNames.alertKey(rule: "cpu-hot", sensor: "sim:a.b")) == "cpu-hot__sim_a_b")
    }

    @Test func topicsFollowTheSpec() {
        let topics = MQTTTopics(prefix: "sensorwatch", host: "rack1.lan", discoveryPrefix: "homeassistant")
        #expect(topics.status == "sensorwatch/rack1_lan/status")
        #expect(topics.sensorState("x") == "sensorwatch/rack1_lan/sensor/x/state")
        #expect(topics.alertState("x") == "sensorwatch/rack1_lan/alert/x/state")
        #expect(topics.alertAttributes("x") == "sensorwatch/rack1_lan/alert/x/attributes")
        #expect(topics.sensorConfig("x") == "homeassistant/sensor/sensorwatch_rack1_lan/x/config")
        #expect(topics.alertConfig("x") == "homeassistant/binary_sensor/sensorwatch_rack1_lan/x/config")
        #expect(topics.homeAssistantStatus == "homeassistant/status")
        let none = MQTTTopics(prefix: "p", host: "h", discoveryPrefix: nil)
        #expect(none.sensorConfig("x") == nil && none.alertConfig("x") == nil && none.homeAssistantStatus == nil)
    }
}
