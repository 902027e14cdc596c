@testable import SensorCLI
import SensorConfig
import SensorCore
import SensorNotify
import SensorSystemd
import SensorTestKit
import Testing

/// The threshold a rule used reads the same in the journal's message, `status` (text and
/// JSON), `history` and what `notify` delivers, for every kind of rule (issue 34): one
/// function (``AlertThreshold/text(unit:)``) writes it, from what the rule resolved for
/// the sensor — a limit rule's `100 °C (crit)`, not its `otherwise`.
struct ThresholdAgreementTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var rule: String
        var quantity: Quantity = .temperature
        var limits: [String: Double] = [:]
        /// One reading a second from 0; nil a failed read; a name after `!` a latched alarm.
        var values: [String]
        /// What every output says after `threshold`.
        var text: String
        /// The journal message's condition part.
        var message: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "above a number", rule: "above: 80", values: ["81"], text: "80 °C",
            message: "81 °C above 80 °C"),
        Case(
            name: "above a limit", rule: #"above: "crit""#, limits: ["crit": 100, "max": 80], values: ["101"],
            text: "100 °C (crit)", message: "101 °C above 100 °C (crit)"),
        Case(
            name: "a limit less a margin", rule: #"above: { limit: "crit", margin: 5 }"#, limits: ["crit": 100],
            values: ["96"], text: "95 °C (crit)", message: "96 °C above 95 °C (crit)"),
        Case(
            name: "otherwise where the sensor lacks the limit", rule: #"above: { limit: "crit", otherwise: 95 }"#,
            limits: ["max": 80], values: ["96"], text: "95 °C", message: "96 °C above 95 °C"),
        Case(
            name: "the limit, not otherwise, where the sensor has it",
            rule: #"above: { limit: "crit", otherwise: 95 }"#,
            limits: ["crit": 100], values: ["96", "101"], text: "100 °C (crit)", message: "101 °C above 100 °C (crit)"),
        Case(
            name: "below a fan's min", rule: #"below: "min""#, quantity: .fan, limits: ["min": 1500], values: ["1200"],
            text: "1500 rpm (min)", message: "1200 rpm below 1500 rpm (min)"),
        Case(
            name: "below a number", rule: "below: 25", quantity: .humidity, values: ["21.25"], text: "25 %RH",
            message: "21.25 %RH below 25 %RH"),
        Case(
            name: "stale, a duration", rule: #"stale: "5s""#, values: ["50", "-", "-", "-", "-", "-", "-"], text: "5s",
            message: "no reading for 5s"),
        Case(
            name: "rise, a change and its window", rule: #"rise: { by: 10, within: "1m" }"#, values: ["50", "61"],
            text: "10 °C within 1m", message: "61 °C rose by at least 10 °C within 1m"),
        Case(
            name: "fall, a change and its window", rule: #"fall: { by: 3, within: "3h" }"#, quantity: .pressure,
            values: ["1010", "1006.5"], text: "3 hPa within 3h", message: "1006.5 hPa fell by at least 3 hPa within 3h"),
        Case(
            name: "predict, the limit and how far ahead",
            rule: #"predict: { above: "crit", within: "10s", over: "2s" }"#,
            limits: ["crit": 100], values: ["70", "75", "80"], text: "100 °C (crit) within 10s",
            message: "75 °C, heading above 100 °C (crit) within 10s (125 °C)"),
        Case(
            name: "alarm, the limit whose alarm the chip latched", rule: "alarm: true", limits: ["crit": 100],
            values: ["50!crit"], text: "crit", message: "50 °C in hardware alarm (crit)"),
    ]

    /// The engine's events and status entry for `c`'s rule over its readings.
    static func run(_ c: Case) throws -> (event: AlertEvent, status: StatusAlert) {
        let files = TemporaryDirectory()
        files.write("c.json5", "{ rules: [{ name: \"r\", sensor: \"*\", \(c.rule) }] }")
        let rule = try #require(try ConfigLoader.load(path: files.path("c.json5")).rules.first)
        let sensor = SensorInfo(id: "sim:s", label: "S", quantity: c.quantity, limits: SensorLimits(values: c.limits))
        let list = SensorList(source: "sim", sensors: [sensor])
        var engine = RuleEngine(rules: [rule])
        var events: [AlertEvent] = []
        for (t, text) in c.values.enumerated() {
            let parts = text.split(separator: "!")
            var cycle = PollCycle.reading(list, at: Double(t), [(sensor, Double(parts[0]))])
            if parts.count > 1 { cycle.readings.setAlarms(0, try #require(HardwareAlarms(name: String(parts[1])))) }
            engine.process(cycle, into: &events)
        }
        let event = try #require(events.last { $0.kind == .firing })
        var status: StatusAlert?
        engine.forEachActiveAlert { _, _, _, threshold in
            status = StatusAlert(
                rule: "r", sensor: "sim:s", severity: .warning, state: .firing, since: 0, value: event.value,
                threshold: threshold.value, condition: threshold.condition, limit: threshold.limit,
                within: threshold.within, unit: sensor.unit)
        }
        return (event, try #require(status))
    }

    /// The journal entry read back as `history` and `notify` read it (``JournalEntryDecoder``).
    static func record(_ fields: [String]) throws -> JournalAlertRecord {
        try JournalEntryDecoder.alert(JournalEntryDecoder.fields(fields), realtimeMicroseconds: 0)
    }

    @Test(arguments: cases) func everyOutputSaysTheThresholdTheRuleUsed(_ c: Case) throws {
        let (event, status) = try Self.run(c)
        let unit = event.sensor.unit
        #expect(event.usedThreshold.text(unit: unit) == c.text)
        // The journal: its message, and the fields `history` and `notify` read back.
        let fields = JournalFields.fields(for: event)
        let message = event.message
        #expect(message.hasSuffix(c.message), "\(message)")
        #expect(fields.first == "MESSAGE=" + message)
        // history
        let line = HistoryFormatter.line(try Self.record(fields), time: "T")
        #expect(line.contains(" threshold \(c.text) "), "\(line)")
        // status, for a person and in the file (read back as `status` reads it)
        let report = StatusReport(
            version: "0", pid: 1, started: 0, updated: 0,
            sensors: [
                StatusSensor(
                    id: "sim:s", label: "S", quantity: c.quantity.rawValue, unit: unit, value: event.value,
                    time: 0, ok: true, error: nil)
            ],
            alerts: [status])
        let person = StatusFormatter.person(report, now: 0) { _ in "T" }
        #expect(person.contains(" threshold \(c.text)  since T"), "\(person)")
        let decoded = try StatusReport.decode(Array(report.json.utf8), path: "status.json")
        #expect(decoded.alerts.first?.thresholdText == c.text)
        #expect(decoded.alerts.first?.threshold == event.threshold, "JSON keeps the number")
        // notify delivers the entry's MESSAGE.
        #expect(try Self.record(fields).message.contains(c.message))
    }

    /// `notify --test`'s made-up events read as the daemon's: the resolved one is below its
    /// threshold and says "no longer above".
    @Test func notifyTestEventsReadAsTheDaemonsOwn() {
        let events = NotifyEvent.testEvents(now: 0, host: "h")
        #expect(
            events.map(\.message) == [
                "sensorwatch-test firing: sim:test (test) 42 °C above 40 °C (sensorwatch notify --test)",
                "sensorwatch-test resolved: sim:test (test) 38 °C, no longer above 40 °C (sensorwatch notify --test)",
            ])
    }
}
