#if canImport(Glibc)
import Glibc
#endif
public import SensorConfig
public import SensorCore
import SensorIPMI
public import SensorRuntime
import SensorSysfs
import SensorDaemon

/// `sensorwatch sensors [--config PATH] [--json]`: discovers the configured sources, reads
/// every sensor once and prints the result (SPEC §2).
///
/// Read failures are part of the output (`value: null` plus `error` in JSON), not errors of
/// the command: it exits 0 whenever the configuration loads.
public enum SensorsCommand {
    static let usage = """
        usage: sensorwatch sensors [--config PATH] [--json]

        Discovers the configured sources, reads each sensor once and prints id, label,
        quantity, value and unit.

        options:
          --config PATH  configuration file (default: $SENSORWATCH_CONFIG, else
                         /etc/sensorwatch/sensorwatch.json5)
          --json         print one JSON array of {id, label, quantity, unit, value[, error]
                         [, asleep][, mirrors][, limits][, ignoredLimits][, alarms]}
                         (asleep: its device is runtime-suspended, so it was not read and
                         value is null; mirrors: the thermal zone an hwmon sensor is;
                         limits: the driver's plausible
                         limits; ignoredLimits: limit files ignored, with the reason;
                         alarms: the chip's alarm files that read 1, as limit names)
          --help         show this help

        examples:
          sensorwatch sensors
          sensorwatch sensors --config config/sensorwatch.json5
          sensorwatch sensors --json | jq -r '.[] | select(.error) | .id'
        """

    /// Runs the command with its arguments (after `sensors`) and returns the exit status.
    public static func run(_ args: [String]) async throws(ExitCode) -> ExitCode {
        let options: Options = try CommandSupport.parse(args, flags: ["json"], help: usage)
        let configuration: Configuration = try CommandSupport.loadConfiguration(options.configPath)
        let json = options.has("json")
        let readings: [Reading] = try CommandSupport.withThreads({ () throws(SystemError) in
            try read(configuration.sources, derived: configuration.derived, clock: BootClock())
        })
        Output.stdout(json ? Self.json(readings) : table(readings))
        let unread = readings.count { $0.error.map(OpenFileLimit.isShortage) ?? false }
        if unread > 0 {
            Output.stderr(
                "sensorwatch: \(unread) of \(readings.count) sensors are left unread: \(ErrnoText.words(EMFILE)); "
                    + "the open-file limit is \(OpenFileLimit.current().description)")
        }
        return .success
    }

    /// One sensor and what reading it once gave.
    public struct Reading: Hashable, Sendable {
        /// The sensor.
        public var sensor: SensorInfo
        /// The value in the quantity's unit, nil when the read failed.
        public var value: Double?
        /// Why the read failed (nil on success).
        public var error: ReadFault?
        /// For an hwmon sensor that is a thermal zone exported again by the kernel: the
        /// zone's id (the same sensor under its `thermal:` id).
        public var mirrors: SensorID?
        /// The chip's alarm files that read 1 with the value (SPEC §16b).
        public var alarms: HardwareAlarms
        /// Not read because its device sleeps (SPEC §20); `value` and `error` are nil then.
        public var asleep: Bool
        /// A discrete sensor's asserted states (a BMC's, SPEC §23): each state's words and
        /// whether it is an alarm (warning or critical); nil for a sensor of values.
        public var states: [(text: String, alarm: Bool)]?

        /// Equal when every field is, the states compared by words and alarm flag.
        public static func == (a: Reading, b: Reading) -> Bool {
            a.sensor == b.sensor && a.value == b.value && a.error == b.error && a.mirrors == b.mirrors
                && a.alarms == b.alarms
                && a.asleep == b.asleep && a.states?.map(\.text) == b.states?.map(\.text)
                && a.states?.map(\.alarm) == b.states?.map(\.alarm)
        }

        /// Hashes the sensor, value and error only; readings equal under `==` hash the same.
        public func hash(into h: inout Hasher) {
            h.combine(sensor)
            h.combine(value)
            h.combine(error)
        }

        /// A reading; `error` is meant for a nil `value`.
        public init(
            sensor: SensorInfo, value: Double?, error: ReadFault?, mirrors: SensorID? = nil,
            alarms: HardwareAlarms = [],
            asleep: Bool = false
        ) {
            self.asleep = asleep
            self.alarms = alarms
            self.sensor = sensor
            self.value = value
            self.error = error
            self.mirrors = mirrors
        }
    }

    /// Discovers and reads every source once: sources in configuration order, sensors by
    /// id within a source, then the derived sensors (SPEC §11) computed from those readings,
    /// which count as one poll at t = 0. Simulated sources report their value at t = 0.
    public static func read(
        _ sources: [SourceConfiguration], derived: [DerivedSensorConfiguration] = [], clock: some RunClock
    ) throws(SystemError) -> [Reading] {
        var out: [Reading] = []
        var deriving = DerivedSensors(derived)
        for (n, source) in sources.enumerated() {
            let reader = SourceReaders.plain.make(source, loop: false)
            // On a poll thread with a stall watch: a file that blocks costs its sensor only.
            let (polled, cycles) = try reader.readOnce(clock: clock)
            // A BMC's session is given back now: the process ends before the reader would go.
            defer { reader.close() }
            let listed = polled.sensors
            let sensors = listed.sorted { $0.id < $1.id }
            let mirrors = (reader as? SysfsReader)?.thermalMirrors() ?? [:]
            let states = (reader as? IPMIReader)?.states ?? [:]
            let list = SensorList(source: "\(n)", sensors: listed)
            // Learned even when the poll reads nothing: a difference takes its inputs' quantity.
            deriving.learn(source: list.source, sensors: listed)
            var latest: [SensorID: Sample] = [:]
            var alarms: [SensorID: HardwareAlarms] = [:]
            var asleep: Set<SensorID> = []
            for cycle in cycles.map({ PollCycle(list: list, readings: $0.readings, tick: false) }) {
                deriving.record(cycle)
                for sample in cycle.samples { latest[sample.sensor] = sample }
                for (i, set) in cycle.readings.alarms { alarms[listed[i].id] = set }
                for i in cycle.readings.asleep { asleep.insert(listed[i].id) }
            }
            for sensor in sensors {
                if asleep.contains(sensor.id) {
                    out.append(
                        Reading(sensor: sensor, value: nil, error: nil, mirrors: mirrors[sensor.id], asleep: true))
                    continue
                }
                let sample = latest[sensor.id]
                let error: ReadFault? = sample == nil ? "no reading" : sample?.fault
                var reading = Reading(
                    sensor: sensor, value: sample?.value, error: sample?.value == nil ? error : nil,
                    mirrors: mirrors[sensor.id], alarms: sample?.value == nil ? [] : alarms[sensor.id] ?? [])
                if sensor.quantity == .state, sample?.value != nil {
                    reading.states = (states[sensor.id] ?? []).map { ($0.text, $0.isAlarm) }
                }
                out.append(reading)
            }
        }
        var computed: [SensorID: Result<Double, ReadFault>] = [:]
        let derivedSensors = deriving.sensors
        for case .reading(let d, _, let result) in deriving.drain(through: .zero) {
            computed[derivedSensors[d].id] = result
        }
        for sensor in derivedSensors {
            switch computed[sensor.id] {
            case .success(let v): out.append(Reading(sensor: sensor, value: v, error: nil))
            case .failure(let f): out.append(Reading(sensor: sensor, value: nil, error: f))
            case nil: out.append(Reading(sensor: sensor, value: nil, error: "no reading of its inputs"))
            }
        }
        return out
    }

    /// ` (max 80 °C, crit 100 °C)`, or nothing for a sensor without limits.
    private static func limits(_ sensor: SensorInfo) -> String {
        let summary = sensor.limits.summary(unit: sensor.unit)
        return summary.isEmpty ? "" : " (" + summary + ")"
    }

    /// A discrete sensor's asserted states' words (`Presence detected, Power Supply Failure
    /// detected`), `no state asserted` when none is.
    private static func stateText(_ states: [(text: String, alarm: Bool)]) -> String {
        EventFormatter.states(states.map(\.text))
    }

    /// `  ALARM`, as lm-sensors prints it after a reading whose alarm file reads 1, with the
    /// limits' alarms named (`  ALARM (CRIT)`); nothing without one.
    private static func alarm(_ alarms: HardwareAlarms) -> String {
        guard !alarms.isEmpty else { return "" }
        let named = alarms.list.filter { $0 != "alarm" }.map { $0.uppercased() }
        return "  ALARM" + (named.isEmpty ? "" : " (" + named.joined(separator: ", ") + ")")
    }

    /// The JSON array of SPEC §2, one object a line; valid JSON whatever the readings hold.
    public static func json(_ readings: [Reading]) -> String {
        JSONWriter.text(.array(readings.map(object)), layout: .lines(depth: 1))
    }

    /// One reading's object, keys in the documented order.
    private static func object(_ r: Reading) -> JSONValue {
        func strings(_ list: [String]) -> JSONValue { .array(list.map(JSONValue.string)) }
        var members: [JSONObject.Member] = [
            .string("id", r.sensor.id.rawValue), .string("label", r.sensor.label),
            .string("quantity", r.sensor.quantity.rawValue), .string("unit", r.sensor.unit),
            // A discrete sensor's value is its states, not a number (SPEC §23).
            .number("value", r.states == nil ? r.value : nil),
        ]
        if let states = r.states {
            members.append(.init(key: "state", value: strings(states.map(\.text))))
            members.append(.init(key: "alarms", value: strings(states.filter(\.alarm).map(\.text))))
        } else if r.asleep {
            members.append(.init(key: "asleep", value: .bool(true)))
        } else if r.value == nil {
            members.append(.string("error", r.error?.description ?? "no reading"))
        }
        if let zone = r.mirrors { members.append(.string("mirrors", zone.rawValue)) }
        let limits = r.sensor.limits
        if !limits.values.isEmpty {
            let values = ordered(limits.values).map { JSONObject.Member.number($0, limits.values[$0]) }
            members.append(.init(key: "limits", value: .object(JSONObject(values))))
        }
        if !limits.ignored.isEmpty {
            let ignored = ordered(limits.ignored).map { JSONObject.Member.string($0, limits.ignored[$0]!) }
            members.append(.init(key: "ignoredLimits", value: .object(JSONObject(ignored))))
        }
        if !r.alarms.isEmpty, r.states == nil { members.append(.init(key: "alarms", value: strings(r.alarms.list))) }
        return .object(JSONObject(members))
    }

    /// The names of `members` in the order limits are shown (``SensorLimits/ordered(_:)``).
    ///
    /// The known names are looked up in display order: sorting each sensor's names cost more
    /// than the rest of the output (figures: bench/README.md, "Instructions behind the code's
    /// shortcuts"); only a sensor with a name outside that order has its names sorted.
    private static func ordered<V>(_ members: [String: V]) -> [String] {
        let known = SensorLimits.displayOrder.filter { members[$0] != nil }
        return known.count == members.count ? known : SensorLimits.ordered(members.keys)
    }

    /// A readable table: id, label, quantity, value with unit (or `error: …`) and the
    /// sensor's limits (`45 °C (max 80 °C, crit 100 °C)`); then, if
    /// hwmon re-exports thermal zones, which hwmon id is which zone (rules that select both
    /// would alert twice for one sensor).
    public static func table(_ readings: [Reading]) -> String {
        guard !readings.isEmpty else { return "no sensors found" }
        // Ids, labels, units and errors come from sysfs: each is shown on its row.
        let rows =
            [["ID", "LABEL", "QUANTITY", "VALUE"]]
            + readings.map { r in
                [
                    r.sensor.id.rawValue, r.sensor.label, r.sensor.quantity.rawValue,
                    (r.asleep
                        ? "asleep"
                        : r.states.map(stateText) ?? r.value.map { NumberText.display($0) + " " + r.sensor.unit }
                            ?? "error: " + (r.error?.description ?? "no reading"))
                        + limits(r.sensor) + alarm(r.alarms),
                ].map(DisplayText.escaped)
            }
        var widths = [0, 0, 0]
        for row in rows {
            for c in 0..<3 { widths[c] = max(widths[c], DisplayWidth.cells(row[c])) }
        }
        let table = rows.map { row in
            (0..<3).map { DisplayWidth.padded(row[$0], to: widths[$0]) }.joined(separator: "  ") + "  " + row[3]
        }.joined(separator: "\n")
        let mirrored = readings.compactMap { r in
            r.mirrors.map { (DisplayText.escaped(r.sensor.id.rawValue), DisplayText.escaped($0.rawValue)) }
        }
        guard !mirrored.isEmpty else { return table }
        let width = mirrored.map { DisplayWidth.cells($0.0) }.max() ?? 0
        return table + "\n\nthermal zones the kernel also exports through hwmon (one sensor, two ids;"
            + " exclude one to alert once):\n"
            + mirrored.map { "  " + DisplayWidth.padded($0.0, to: width) + "  = " + $0.1 }.joined(separator: "\n")
    }
}
