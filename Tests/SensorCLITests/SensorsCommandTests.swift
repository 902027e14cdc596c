@testable import SensorCLI
@testable import SensorConfig
@testable import SensorCore
import SensorIPMI
@testable import SensorRuntime
import SensorTestKit
import Testing

@Suite struct SensorsCommandTests {
    /// Reads `sources` once on the boot clock, as the command does.
    static func readSources(_ sources: [SourceConfiguration]) throws -> [SensorsCommand.Reading] {
        try SensorsCommand.read(sources, clock: BootClock())
    }

    /// A thermal and an hwmon tree under a fresh /tmp directory.
    static func writeTree() -> TemporaryDirectory {
        let tree = TemporaryDirectory(prefix: "sensorwatch-cli")
        tree.write([
            "thermal/thermal_zone0/type": "x86_pkg_temp\n", "thermal/thermal_zone0/temp": "45000\n",
            "thermal/thermal_zone1/type": "acpi\"tz\n", "thermal/thermal_zone1/temp": "abc\n",
            "hwmon/hwmon0/name": "sht3x\n", "hwmon/hwmon0/temp1_input": "23450\n",
            "hwmon/hwmon0/humidity1_input": "45120\n",
        ])
        return tree
    }

    static func sources(_ root: String) -> [SourceConfiguration] {
        [
            SourceConfiguration(kind: .thermal, interval: .seconds(1), root: root + "/thermal"),
            SourceConfiguration(kind: .hwmon, interval: .seconds(1), root: root + "/hwmon"),
        ]
    }

    @Test func jsonListsEverySensorInSourceOrderWithErrorsForFailedReads() throws {
        let tree = Self.writeTree()
        let root = tree.root
        let text = SensorsCommand.json(try Self.readSources(Self.sources(root)))
        #expect(
            text == """
                [
                  {"id":"thermal:acpi\\"tz","label":"acpi\\"tz","quantity":"temperature","unit":"°C","value":null,"error":"not a number: \\"abc\\""},
                  {"id":"thermal:x86_pkg_temp","label":"x86_pkg_temp","quantity":"temperature","unit":"°C","value":45},
                  {"id":"hwmon:sht3x-virtual-0/humidity1","label":"","quantity":"humidity","unit":"%RH","value":45.12},
                  {"id":"hwmon:sht3x-virtual-0/temp1","label":"","quantity":"temperature","unit":"°C","value":23.45}
                ]
                """)
        guard case .array(let entries) = try JSON5Parser.parse(text) else {
            Issue.record("not a JSON array: \(text)")
            return
        }
        let values = entries.map { entry -> Double? in
            guard case .object(let members) = entry else { return nil }
            switch members["value"] {
            case .integer(let i)?: return Double(i)
            case .number(let d)?: return d
            default: return nil
            }
        }
        #expect(values == [nil, 45, 45.12, 23.45])
    }

    @Test func aSleepingSensorIsAsleepWithANullValueAndNoError() throws {
        let gpu = SensorInfo(id: "hwmon:amdgpu-pci-0100/temp1", label: "edge", quantity: .temperature)
        let readings = [SensorsCommand.Reading(sensor: gpu, value: nil, error: nil, asleep: true)]
        #expect(
            SensorsCommand.json(readings) == """
                [
                  {"id":"hwmon:amdgpu-pci-0100/temp1","label":"edge","quantity":"temperature","unit":"°C","value":null,"asleep":true}
                ]
                """)
        #expect(SensorsCommand.table(readings).hasSuffix("temperature  asleep"))
    }

    @Test func noSensorsIsAnEmptyJSONArray() throws {
        let none = [SourceConfiguration(kind: .iio, interval: .seconds(1), root: "/nonexistent/sensorwatch")]
        #expect(SensorsCommand.json(try Self.readSources(none)) == "[]")
    }

    @Test func theTableShowsValuesWithUnitsAndErrors() throws {
        let tree = Self.writeTree()
        let root = tree.root
        #expect(
            SensorsCommand.table(try Self.readSources(Self.sources(root))) == """
                ID                               LABEL         QUANTITY     VALUE
                thermal:acpi"tz                  acpi"tz       temperature  error: not a number: "abc"
                thermal:x86_pkg_temp             x86_pkg_temp  temperature  45 °C
                hwmon:sht3x-virtual-0/humidity1                humidity     45.12 %RH
                hwmon:sht3x-virtual-0/temp1                    temperature  23.45 °C
                """)
    }

    /// Numbers for people are rounded one way (``NumberText/display(_:)``, issue 34): a
    /// simulated sensor's noise prints `55.171 °C` in the table, its limits too, while the
    /// JSON keeps every digit; a CJK label keeps the columns in line (``DisplayWidth``).
    @Test func theTableRoundsAsEveryOutputDoesAndJSONKeepsFullPrecision() {
        let s = SensorInfo(
            id: "sim:cpu", label: "温度", quantity: .temperature, limits: SensorLimits(values: ["crit": 99.99951]))
        let t = SensorInfo(id: "sim:room", label: "Room", quantity: .humidity)
        let readings = [
            SensorsCommand.Reading(sensor: s, value: 55.170780029707174, error: nil),
            SensorsCommand.Reading(sensor: t, value: 40, error: nil),
        ]
        #expect(
            SensorsCommand.table(readings) == """
                ID        LABEL  QUANTITY     VALUE
                sim:cpu   温度   temperature  55.171 °C (crit 100 °C)
                sim:room  Room   humidity     40 %RH
                """)
        #expect(SensorsCommand.json(readings).contains("\"value\":55.170780029707174"))
    }

    /// README "Thermal zones seen twice": both ids stay, and `sensors` says which is which.
    @Test func hwmonMirrorsOfThermalZonesAreNamedUnderTheTable() throws {
        let tree = TemporaryDirectory.thermalHwmonMirrors()
        let sources = [
            SourceConfiguration(kind: .thermal, interval: .seconds(1), root: tree.path("class/thermal")),
            SourceConfiguration(kind: .hwmon, interval: .seconds(1), root: tree.path("class/hwmon")),
        ]
        #expect(
            SensorsCommand.table(try Self.readSources(sources)) == """
                ID                                 LABEL         QUANTITY     VALUE
                thermal:acpitz                     acpitz        temperature  27.8 °C
                thermal:acpitz.1                   acpitz        temperature  29.8 °C
                thermal:cpu-thermal                cpu-thermal   temperature  50 °C
                thermal:x86_pkg_temp               x86_pkg_temp  temperature  45 °C
                hwmon:acpitz-acpi-0/temp1                        temperature  27.8 °C
                hwmon:acpitz-acpi-0/temp2                        temperature  29.8 °C
                hwmon:coretemp-isa-0000/temp1                    temperature  48 °C
                hwmon:cpu_thermal-virtual-0/temp1                temperature  50 °C

                thermal zones the kernel also exports through hwmon (one sensor, two ids; exclude one to alert once):
                  hwmon:acpitz-acpi-0/temp1          = thermal:acpitz
                  hwmon:acpitz-acpi-0/temp2          = thermal:acpitz.1
                  hwmon:cpu_thermal-virtual-0/temp1  = thermal:cpu-thermal
                """)
        let json = SensorsCommand.json(try Self.readSources([sources[1]]))
        #expect(
            json.contains(
                #"{"id":"hwmon:acpitz-acpi-0/temp2","label":"","quantity":"temperature","unit":"°C","value":29.8,"mirrors":"thermal:acpitz.1"}"#
            ))
        #expect(
            json.contains(
                #"{"id":"hwmon:coretemp-isa-0000/temp1","label":"","quantity":"temperature","unit":"°C","value":48}"#))
    }

    static let badUsage: [[String]] = [["--bogus"], ["--config"], ["--json", "extra"]]

    @Test(arguments: badUsage)
    func badOptionsAreUsageErrors(args: [String]) async {
        #expect(await CLI.main(["sensors"] + args) == .usage)
    }

    @Test func anUnloadableConfigurationIsAConfigurationError() async throws {
        #expect(await CLI.main(["sensors", "--config", "/nonexistent/sensorwatch.json5", "--json"]) == .config)
    }

    @Test func helpSucceeds() async throws {
        #expect(await CLI.main(["sensors", "--help"]) == .success)
    }
}

/// `sensors` shows each sensor's limits (SPEC §16).
@Suite struct SensorsCommandLimitsTests {
    static func tree() -> TemporaryDirectory {
        let tree = TemporaryDirectory(prefix: "sensorwatch-limits")
        tree.write([
            "hwmon/hwmon0/name": "coretemp\n", "hwmon/hwmon0/temp1_input": "45000\n",
            "hwmon/hwmon0/temp1_label": "Package id 0\n", "hwmon/hwmon0/temp1_max": "80000\n",
            "hwmon/hwmon0/temp1_crit": "100000\n", "hwmon/hwmon0/temp1_crit_hyst": "95000\n",
            "hwmon/hwmon1/name": "nvme\n", "hwmon/hwmon1/temp1_input": "38850\n",
            "hwmon/hwmon1/temp1_label": "Composite\n",
            "hwmon/hwmon1/temp1_crit": "84850\n", "hwmon/hwmon1/temp1_max": "65261850\n",
            "hwmon/hwmon1/temp1_min": "-273150\n",
            "hwmon/hwmon2/name": "acpitz\n", "hwmon/hwmon2/temp1_input": "27800\n",
        ])
        return tree
    }

    static func read(_ tree: TemporaryDirectory) throws -> [SensorsCommand.Reading] {
        try SensorsCommandTests.readSources([
            SourceConfiguration(kind: .hwmon, interval: .seconds(1), root: tree.path("hwmon"))
        ])
    }

    @Test func theTableShowsLimitsAfterTheValue() throws {
        #expect(
            SensorsCommand.table(try Self.read(Self.tree())) == """
                ID                              LABEL         QUANTITY     VALUE
                hwmon:acpitz-virtual-0/temp1                  temperature  27.8 °C
                hwmon:coretemp-virtual-0/temp1  Package id 0  temperature  45 °C (max 80 °C, crit 100 °C)
                hwmon:nvme-virtual-0/temp1      Composite     temperature  38.85 °C (crit 84.85 °C)
                """)
    }

    /// A hostile tree's chip name and label (SPEC §19): the table shows them escaped on
    /// their row, JSON as JSON escapes them.
    @Test func controlCharactersOfTheTreeAreEscapedInTheTableAndInJSON() throws {
        let tree = TemporaryDirectory(prefix: "sensorwatch-hostile")
        tree.write([
            "hwmon/hwmon0/name": "evil\u{9B}\n", "hwmon/hwmon0/temp1_input": "45000\n",
            "hwmon/hwmon0/temp1_label": "\u{1B}[2J\u{1B}]52;c;aGk=\u{7}\r\n<0>forged\n",
        ])
        let readings = try Self.read(tree)
        #expect(
            SensorsCommand.table(readings) == #"""
                ID                                LABEL                                   QUANTITY     VALUE
                hwmon:evil\u{9b}-virtual-0/temp1  \x1b[2J\x1b]52;c;aGk=\x07\r\n<0>forged  temperature  45 °C
                """#)
        #expect(
            SensorsCommand.json(readings) == #"""
                [
                  {"id":"hwmon:evil\u009b-virtual-0/temp1","label":"\u001b[2J\u001b]52;c;aGk=\u0007\r\n<0>forged","quantity":"temperature","unit":"°C","value":45}
                ]
                """#)
    }

    @Test func jsonHasLimitsAndIgnoredLimitsOnlyWhereThereAreAny() throws {
        #expect(
            SensorsCommand.json(try Self.read(Self.tree())) == """
                [
                  {"id":"hwmon:acpitz-virtual-0/temp1","label":"","quantity":"temperature","unit":"°C","value":27.8},
                  {"id":"hwmon:coretemp-virtual-0/temp1","label":"Package id 0","quantity":"temperature","unit":"°C","value":45,"limits":{"max":80,"crit":100,"crit_hyst":95}},
                  {"id":"hwmon:nvme-virtual-0/temp1","label":"Composite","quantity":"temperature","unit":"°C","value":38.85,"limits":{"crit":84.85},"ignoredLimits":{"min":"-273.15 °C is not a plausible limit","max":"65261.85 °C is not a plausible limit"}}
                ]
                """)
    }
}

/// A BMC's discrete sensor in `sensors` and in an alert's message (SPEC §23).
@Suite struct DiscreteSensorOutputTests {
    static let psu = SensorInfo(id: "ipmi:bmc-r1-01/PSU1_Status", label: "PSU1 Status", quantity: .state)

    @Test func jsonHasANullValueTheStatesWordsAndTheAlarmingOnes() {
        var r = SensorsCommand.Reading(sensor: Self.psu, value: 3, error: nil, alarms: [HardwareAlarms(name: "alarm")!])
        r.states = [("Presence detected", false), ("Power Supply Failure detected", true)]
        #expect(
            SensorsCommand.json([r]) == """
                [
                  {"id":"ipmi:bmc-r1-01/PSU1_Status","label":"PSU1 Status","quantity":"state","unit":"","value":null,\
                "state":["Presence detected","Power Supply Failure detected"],"alarms":["Power Supply Failure detected"]}
                ]
                """)
    }

    @Test func theTablePrintsTheStatesWordsAndALARM() {
        var r = SensorsCommand.Reading(sensor: Self.psu, value: 3, error: nil, alarms: [HardwareAlarms(name: "alarm")!])
        r.states = [("Presence detected", false), ("Power Supply Failure detected", true)]
        #expect(
            SensorsCommand.table([r]).hasSuffix("state     Presence detected, Power Supply Failure detected  ALARM"))
        var nominal = SensorsCommand.Reading(sensor: Self.psu, value: 1, error: nil)
        nominal.states = [("Presence detected", false)]
        #expect(SensorsCommand.table([nominal]).hasSuffix("state     Presence detected"))
    }

    @Test func anAlarmOnADiscreteSensorDoesNotPrintItsBitsAsAValue() {
        let e = AlertEvent(
            time: .seconds(1), kind: .firing, rule: "hw-alarm", ruleIndex: 0, sensor: Self.psu, severity: .warning,
            value: 3,
            threshold: 0, condition: .alarm, limit: "alarm")
        #expect(
            e.message
                == "hw-alarm firing: ipmi:bmc-r1-01/PSU1_Status (PSU1 Status) in hardware alarm (alarm)")
    }
}

/// An alarm of a BMC's discrete sensor fires "with the state's text" (SPEC §23).
@Suite struct BMCAlertSinkTests {
    @Test func anAlarmOfADiscreteSensorEndsWithItsAlarmingStatesWords() {
        let board = IPMIStateBoard()
        let psu = DiscreteSensorOutputTests.psu
        let memory = MemoryAlertSink()
        let sink = BMCAlertSink(sink: memory, board: board)
        func event(_ kind: EventKind) -> AlertEvent {
            AlertEvent(
                time: .seconds(1), kind: kind, rule: "hw-alarm", ruleIndex: 0, sensor: psu, severity: .warning,
                value: 3,
                threshold: 0, condition: .alarm, limit: "alarm")
        }
        // A reader's poll fills the board in `run`; here, by hand.
        board.post([
            psu.id: [
                IPMIStateMeaning(severity: .nominal, text: "Presence detected"),
                IPMIStateMeaning(severity: .critical, text: "Power Supply Failure detected"),
            ]
        ])
        sink.emit(event(.firing))
        sink.emit(event(.resolved))
        let messages = memory.events.map(\.message)
        #expect(
            messages == [
                "hw-alarm firing: ipmi:bmc-r1-01/PSU1_Status (PSU1 Status) in hardware alarm (alarm): Power Supply Failure detected",
                "hw-alarm resolved: ipmi:bmc-r1-01/PSU1_Status (PSU1 Status) no longer in hardware alarm (alarm)",
            ])
    }
}

/// A BMC that stops answering is one fault entry naming it, not one per sensor (SPEC §23).
@Suite struct BMCFaultGroupingTests {
    private func fault(_ id: String, _ reason: String?) -> SensorFault {
        SensorFault(
            time: .seconds(1), sensor: SensorInfo(id: SensorID(id), label: "x", quantity: .temperature), reason: reason)
    }

    @Test func oneBMCsSensorsFailingForOneReasonAreOneEntryOthersStayApart() {
        let timeout = "bmc-r1-07: session timeout after 5 s"
        let faults = [
            fault("hwmon:coretemp-isa-0000/temp1", "EIO"),
            fault("ipmi:bmc-r1-07/FAN1", timeout), fault("ipmi:bmc-r1-07/Inlet_Temp", timeout),
            fault("ipmi:bmc-r1-08/FAN1", "bmc-r1-08: reading unavailable"),
            fault("ipmi:bmc-r1-07/12V", timeout),
        ]
        let grouped = BMCAlertSink.grouped(faults)
        #expect(
            grouped.map(\.sensor.id.rawValue) == [
                "hwmon:coretemp-isa-0000/temp1", "ipmi:bmc-r1-07", "ipmi:bmc-r1-08/FAN1",
            ])
        #expect(grouped[1].sensor.label == "bmc-r1-07: 3 sensors")
        #expect(grouped[1].reason == timeout)
        #expect(
            grouped[1].message
                == "sensor ipmi:bmc-r1-07 (bmc-r1-07: 3 sensors) read failed: bmc-r1-07: session timeout after 5 s")
        // Reading again together is one entry too.
        let back = BMCAlertSink.grouped([fault("ipmi:bmc-r1-07/FAN1", nil), fault("ipmi:bmc-r1-07/12V", nil)])
        #expect(back.map(\.sensor.id.rawValue) == ["ipmi:bmc-r1-07"])
        #expect(back.first?.reason == nil)
    }

    @Test func theSinkPassesTheGroupsOn() {
        let memory = MemoryAlertSink()
        let sink = BMCAlertSink(sink: memory, board: IPMIStateBoard())
        sink.emit([fault("ipmi:b/A", "b: password refused"), fault("ipmi:b/B", "b: password refused")])
        #expect(memory.faults.map(\.sensor.id.rawValue) == ["ipmi:b"])
    }
}
