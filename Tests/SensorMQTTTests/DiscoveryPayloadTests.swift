import Testing
import SensorCore
import SensorMQTT

/// Home Assistant discovery configs (SPEC §24), golden: keys, device classes and units as
/// Home Assistant's MQTT sensor and binary sensor accept them.
struct DiscoveryPayloadTests {
    static let device = DiscoveryPayload.Device(
        topics: MQTTTopics(prefix: "sensorwatch", host: "rack1", discoveryPrefix: "homeassistant"), hostName: "rack1",
        version: "0.1.0")

    @Test func aTemperatureSensor() {
        let info = SensorInfo(id: "thermal:x86_pkg_temp", label: "CPU package", quantity: .temperature)
        #expect(
            DiscoveryPayload.sensor(
                info, object: "thermal_x86_pkg_temp", device: Self.device, expireAfter: .seconds(30)) == """
                    {"name":"CPU package","unique_id":"sensorwatch_rack1_thermal_x86_pkg_temp",\
                    "state_topic":"sensorwatch/rack1/sensor/thermal_x86_pkg_temp/state","availability_topic":"sensorwatch/rack1/status",\
                    "device_class":"temperature","unit_of_measurement":"°C","state_class":"measurement","expire_after":30,\
                    "device":{"identifiers":["sensorwatch_rack1"],"name":"rack1","manufacturer":"sensorwatch","model":"sensorwatch","sw_version":"0.1.0"}}
                    """)
    }

    @Test(arguments: [
        (Quantity.temperature, "\"device_class\":\"temperature\",\"unit_of_measurement\":\"°C\""),
        (.humidity, "\"device_class\":\"humidity\",\"unit_of_measurement\":\"%\""),
        (.pressure, "\"device_class\":\"pressure\",\"unit_of_measurement\":\"hPa\""),
        (.voltage, "\"device_class\":\"voltage\",\"unit_of_measurement\":\"V\""),
        (.current, "\"device_class\":\"current\",\"unit_of_measurement\":\"A\""),
        (.power, "\"device_class\":\"power\",\"unit_of_measurement\":\"W\""),
        (.fan, "\"availability_topic\":\"sensorwatch/rack1/status\",\"unit_of_measurement\":\"RPM\""),
    ])
    func eachQuantityHasItsClassAndUnit(quantity: Quantity, expected: String) {
        let info = SensorInfo(id: "sim:x", label: "", quantity: quantity)
        let payload = DiscoveryPayload.sensor(info, object: "sim_x", device: Self.device, expireAfter: .seconds(45))
        #expect(payload.contains(expected))
        #expect(payload.contains("\"name\":\"sim:x\""))
        #expect(payload.contains("\"state_class\":\"measurement\",\"expire_after\":45,"))
    }

    @Test func anAlertIsAProblemWithAttributes() {
        let info = SensorInfo(id: "sim:cpu", label: "CPU", quantity: .temperature)
        #expect(
            DiscoveryPayload.alert(rule: "cpu-hot", sensor: info, object: "cpu-hot__sim_cpu", device: Self.device)
                == """
                {"name":"cpu-hot (CPU)","unique_id":"sensorwatch_rack1_cpu-hot__sim_cpu",\
                "state_topic":"sensorwatch/rack1/alert/cpu-hot__sim_cpu/state",\
                "json_attributes_topic":"sensorwatch/rack1/alert/cpu-hot__sim_cpu/attributes",\
                "availability_topic":"sensorwatch/rack1/status","device_class":"problem","payload_on":"ON","payload_off":"OFF",\
                "device":{"identifiers":["sensorwatch_rack1"],"name":"rack1","manufacturer":"sensorwatch","model":"sensorwatch","sw_version":"0.1.0"}}
                """)
    }

    @Test func textFromOutsideIsEscaped() {
        let info = SensorInfo(id: "sim:x", label: "a\"b\n\u{1b}[31m", quantity: .humidity)
        let payload = DiscoveryPayload.sensor(info, object: "sim_x", device: Self.device, expireAfter: .seconds(30))
        #expect(payload.contains(#""name":"a\"b\n\u001b[31m""#))
    }

    @Test func alertAttributesAreJSON() {
        let alert = BridgeAlert(
            rule: "cpu-hot", sensor: "sim:cpu", severity: "critical", firing: true, since: "2026-12-07T09:00:00Z",
            value: 91.5,
            threshold: 80, message: "cpu-hot: CPU 91.5 °C above 80", runbook: "https://wiki/cpu")
        #expect(
            alert.attributesJSON == """
                {"rule":"cpu-hot","sensor":"sim:cpu","severity":"critical","threshold":80,"value":91.5,\
                "since":"2026-12-07T09:00:00Z","message":"cpu-hot: CPU 91.5 °C above 80","runbook":"https://wiki/cpu"}
                """)
        #expect(
            BridgeAlert(rule: "r", sensor: "s", firing: false).attributesJSON
                == #"{"rule":"r","sensor":"s","severity":"","threshold":null,"value":null,"since":null,"message":null,"runbook":null}"#
        )
    }
}
