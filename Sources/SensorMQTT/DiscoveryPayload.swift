public import SensorCore
import SensorRuntime

/// Home Assistant's MQTT discovery configs (SPEC §24): one `sensor` per sensor, one
/// `binary_sensor` (`device_class: problem`) per (rule, sensor) alert, all of one device per
/// host. JSON through ``JSONWriter``, keys in a fixed order, so the payloads are golden-tested.
public enum DiscoveryPayload {
    /// The device of every entity of a host.
    public struct Device: Sendable, Hashable {
        /// The topics (for the node id and the availability topic).
        public var topics: MQTTTopics
        /// The device's name: the host name as the system has it.
        public var hostName: String
        /// sensorwatch's version.
        public var version: String

        /// A device with these parts.
        public init(topics: MQTTTopics, hostName: String, version: String) {
            self.topics = topics
            self.hostName = hostName
            self.version = version
        }
    }

    /// Home Assistant's `device_class` and `unit_of_measurement` for `quantity`: those its
    /// sensor entity accepts (°C, %, hPa, V, A, W); a fan has no device class, unit `RPM`.
    public static func deviceClass(_ quantity: Quantity) -> (deviceClass: String?, unit: String) {
        switch quantity {
        case .temperature: return ("temperature", "°C")
        case .humidity: return ("humidity", "%")
        case .pressure: return ("pressure", "hPa")
        case .voltage: return ("voltage", "V")
        case .current: return ("current", "A")
        case .power: return ("power", "W")
        case .fan: return (nil, "RPM")
        // A BMC's discrete sensor (SPEC §23) has states, not a number: its alerts are what
        // Home Assistant gets (binary sensors); the entity itself has no unit.
        case .state: return (nil, "")
        }
    }

    /// The config of a sensor entity.
    ///
    /// - Parameters:
    ///   - info: the sensor (its label names the entity, else its id).
    ///   - object: its `<object>` name.
    ///   - expireAfter: after how long without a value Home Assistant shows it unavailable.
    public static func sensor(_ info: SensorInfo, object: String, device: Device, expireAfter: Duration) -> String {
        let (deviceClass, unit) = Self.deviceClass(info.quantity)
        let topics = device.topics
        var members: [JSONObject.Member] = [
            member("name", .string(info.label.isEmpty ? info.id.rawValue : info.label)),
            member("unique_id", .string("\(topics.node)_\(object)")),
            member("state_topic", .string(topics.sensorState(object))),
            member("availability_topic", .string(topics.status)),
        ]
        if let deviceClass { members.append(member("device_class", .string(deviceClass))) }
        if !unit.isEmpty {
            members += [member("unit_of_measurement", .string(unit)), member("state_class", .string("measurement"))]
        }
        members += [
            member("expire_after", .integer(max(1, expireAfter.components.seconds))),
            member("device", deviceValue(device)),
        ]
        return JSONWriter.text(.object(JSONObject(members)))
    }

    /// The config of an alert's binary sensor: `ON` while the rule fires for the sensor.
    public static func alert(rule: String, sensor: SensorInfo, object: String, device: Device) -> String {
        let topics = device.topics
        let members: [JSONObject.Member] = [
            member("name", .string("\(rule) (\(sensor.label.isEmpty ? sensor.id.rawValue : sensor.label))")),
            member("unique_id", .string("\(topics.node)_\(object)")),
            member("state_topic", .string(topics.alertState(object))),
            member("json_attributes_topic", .string(topics.alertAttributes(object))),
            member("availability_topic", .string(topics.status)),
            member("device_class", .string("problem")),
            member("payload_on", .string("ON")),
            member("payload_off", .string("OFF")),
            member("device", deviceValue(device)),
        ]
        return JSONWriter.text(.object(JSONObject(members)))
    }

    private static func deviceValue(_ device: Device) -> JSONValue {
        .object(
            JSONObject([
                member("identifiers", .array([.string(device.topics.node)])),
                member("name", .string(device.hostName)),
                member("manufacturer", .string("sensorwatch")),
                member("model", .string("sensorwatch")),
                member("sw_version", .string(device.version)),
            ]))
    }

    private static func member(_ key: String, _ value: JSONValue) -> JSONObject.Member {
        JSONObject.Member(key: key, value: value)
    }
}
