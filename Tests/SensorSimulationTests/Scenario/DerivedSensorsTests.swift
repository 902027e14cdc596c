@testable import SensorConfig
@testable import SensorCore
@testable import SensorRuntime
@testable import SensorSimulation
import SensorTestKit
import Testing

/// Derived sensors (SPEC §11): the formulas, when a derived sensor gets a reading, and how
/// `simulate` computes them from scenario sensors.
@MainActor
struct DerivedSensorsTests {
    // MARK: - Dew point

    /// Reference dew points (Magnus formula, Sonntag's constants; as printed to one decimal
    /// in dew-point tables).
    @Test(arguments: [
        (25.0, 60.0, 16.7), (20.0, 50.0, 9.3), (30.0, 80.0, 26.2), (10.0, 90.0, 8.4),
        (0.0, 100.0, 0.0), (35.0, 30.0, 14.8), (-10.0, 50.0, -18.5),
    ])
    func dewPointMatchesReferenceTables(temperature: Double, humidity: Double, expected: Double) throws {
        let dew = try DerivedFormula.dewPoint(temperature: temperature, humidity: humidity).get()
        #expect(abs(dew - expected) <= 0.05)
    }

    @Test func dewPointOfNoHumidityOrAnImpossibleTemperatureIsAFailedRead() {
        #expect(throws: ReadFault.self) { try DerivedFormula.dewPoint(temperature: 20, humidity: 0).get() }
        #expect(throws: ReadFault.self) { try DerivedFormula.dewPoint(temperature: 20, humidity: -1).get() }
        #expect(throws: ReadFault.self) { try DerivedFormula.dewPoint(temperature: -243.12, humidity: 50).get() }
        // Above 100 %RH computes as is: the dew point lies above the temperature.
        let over = try? DerivedFormula.dewPoint(temperature: 20, humidity: 101).get()
        #expect(over.map { $0 > 20 } == true)
    }

    // MARK: - When readings happen

    static let dew = DerivedSensorConfiguration(
        id: "derived:dew", formula: .dewpoint(temperature: "a:t", humidity: "b:h"), maxAge: .seconds(10))
    static let diff = DerivedSensorConfiguration(
        id: "derived:diff", formula: .difference(of: "a:t", minus: "a:u"), maxAge: .seconds(10))
    static let t = SensorInfo(id: "a:t", quantity: .temperature)
    static let u = SensorInfo(id: "a:u", quantity: .temperature)
    static let h = SensorInfo(id: "b:h", quantity: .humidity)

    static func at(_ s: Int64) -> Timestamp { Timestamp(nanoseconds: s * 1_000_000_000) }

    static func r(_ id: SensorID, _ s: Int64, _ v: Double?) -> (SensorID, Timestamp, Double?) { (id, at(s), v) }

    static func values(_ steps: [DerivedSensors.Step]) -> [String] {
        steps.map { step in
            switch step {
            case .reading(let d, let t, .success(let v)): "\(d)@\(t.seconds)=\(v)"
            case .reading(let d, let t, .failure(let f)): "\(d)@\(t.seconds) fault \(f)"
            case .tick(let d, let t): "\(d)@\(t.seconds) tick"
            }
        }
    }

    @Test func oneReadingPerTimeAfterEveryInputAtThatTimeFromTwoSources() {
        var derived = DerivedSensors([Self.diff, Self.dew])
        derived.learn(source: "a", sensors: [Self.t, Self.u])
        derived.learn(source: "b", sensors: [Self.h])
        derived.record(
            source: "a", time: Self.at(1), tick: true, readings: [Self.r("a:t", 1, 20.0), Self.r("a:u", 1, 15.0)])
        derived.record(source: "b", time: Self.at(1), tick: true, readings: [Self.r("b:h", 1, 50.0)])
        let steps = Self.values(derived.drain(through: Self.at(1)))
        let dew = (try? DerivedFormula.dewPoint(temperature: 20, humidity: 50).get())!
        #expect(steps == ["0@1.0=5.0", "1@1.0=\(dew)", "0@1.0 tick", "1@1.0 tick"])
    }

    @Test func nothingIsEvaluatedPastTheWatermark() {
        var derived = DerivedSensors([Self.diff])
        derived.learn(source: "a", sensors: [Self.t, Self.u])
        derived.record(
            source: "a", time: Self.at(2), tick: false, readings: [Self.r("a:t", 1, 20.0), Self.r("a:u", 2, 15.0)])
        #expect(Self.values(derived.drain(through: Self.at(0))) == [])
        #expect(Self.values(derived.drain(through: Self.at(1))) == ["0@1.0 fault no reading of a:u yet"])
        #expect(Self.values(derived.drain(through: Self.at(5))) == ["0@2.0=5.0"])
    }

    @Test func anInputAsOldAsMaxAgeIsStillFreshAndAnOlderOneIsNot() {
        var derived = DerivedSensors([Self.diff])
        derived.learn(source: "a", sensors: [Self.t, Self.u])
        derived.record(source: "a", time: Self.at(0), tick: false, readings: [Self.r("a:u", 0, 15.0)])
        derived.record(source: "a", time: Self.at(10), tick: false, readings: [Self.r("a:t", 10, 20.0)])
        derived.record(source: "a", time: Self.at(11), tick: false, readings: [Self.r("a:t", 11, 21.0)])
        #expect(
            Self.values(derived.drain(through: Self.at(11))) == [
                "0@0.0 fault no reading of a:t yet", "0@10.0=5.0", "0@11.0 fault input a:u is 11.0 s old",
            ])
    }

    @Test func aFailedInputReadIsAFailedDerivedRead() {
        var derived = DerivedSensors([Self.diff])
        derived.learn(source: "a", sensors: [Self.t, Self.u])
        derived.record(
            source: "a", time: Self.at(1), tick: false, readings: [Self.r("a:t", 1, nil), Self.r("a:u", 1, 15.0)])
        #expect(Self.values(derived.drain(through: Self.at(1))) == ["0@1.0 fault input a:t failed"])
    }

    @Test func inputsOfTheWrongQuantityFailEveryReadingWithTheReason() {
        let wrong = DerivedSensorConfiguration(id: "derived:w", formula: .difference(of: "a:t", minus: "b:h"))
        let swapped = DerivedSensorConfiguration(
            id: "derived:s", formula: .dewpoint(temperature: "b:h", humidity: "a:t"))
        var derived = DerivedSensors([wrong, swapped])
        derived.learn(source: "a", sensors: [Self.t])
        derived.learn(source: "b", sensors: [Self.h])
        derived.record(
            source: "a", time: Self.at(1), tick: false, readings: [Self.r("a:t", 1, 20.0), Self.r("b:h", 1, 50.0)])
        #expect(
            Self.values(derived.drain(through: Self.at(1))) == [
                "0@1.0 fault difference inputs are of different quantities (a:t temperature, b:h humidity)",
                "1@1.0 fault dewpoint input b:h is a humidity, not a temperature",
            ])
    }

    @Test func aDifferenceHasItsInputsQuantity() {
        let p = DerivedSensorConfiguration(id: "derived:p", formula: .difference(of: "i:p1", minus: "i:p2"))
        var derived = DerivedSensors([p, Self.dew])
        #expect(derived.sensors.map(\.quantity) == [.temperature, .temperature])
        derived.learn(source: "i", sensors: [SensorInfo(id: "i:p1", quantity: .pressure)])
        #expect(derived.sensors.map(\.quantity) == [.pressure, .temperature])
    }

    @Test func sourcesTickTheDerivedSensorsOfTheirInputsAndEverySourceTicksOrphans() {
        let ghost = DerivedSensorConfiguration(id: "derived:ghost", formula: .difference(of: "x:1", minus: "x:2"))
        var derived = DerivedSensors([Self.diff, Self.dew, ghost])
        derived.learn(source: "a", sensors: [Self.t, Self.u])
        derived.learn(source: "b", sensors: [Self.h])
        derived.learn(source: "c", sensors: [SensorInfo(id: "c:other", quantity: .pressure)])
        derived.record(source: "c", time: Self.at(1), tick: true, readings: [Self.r("c:other", 1, 1000.0)])
        derived.record(source: "b", time: Self.at(2), tick: true, readings: [])
        #expect(Self.values(derived.drain(through: Self.at(2))) == ["2@1.0 tick", "1@2.0 tick", "2@2.0 tick"])
    }

    // MARK: - Configuration

    static func configErrors(_ derived: String) -> [String] {
        let text = "{ sources: [], rules: [], derived: \(derived) }"
        do {
            _ = try ConfigLoader.load(contents: Array(text.utf8), path: "c.json5")
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    @Test func aValidDerivedSectionLoads() throws {
        let text = """
            { sources: [], rules: [ { name: "dew", sensor: "derived:room-dew", above: 15 } ],
              derived: [
                { id: "room-dew", label: "Room", dewpoint: { temperature: "hwmon:sht3x/temp1", humidity: "hwmon:sht3x/humidity1" } },
                { id: "rack-rise", difference: { of: "hwmon:outlet/temp1", minus: "hwmon:inlet/temp1" }, maxAge: "30s" },
              ] }
            """
        let c = try ConfigLoader.load(contents: Array(text.utf8), path: "c.json5")
        #expect(
            c.derived == [
                DerivedSensorConfiguration(
                    id: "derived:room-dew", label: "Room",
                    formula: .dewpoint(temperature: "hwmon:sht3x/temp1", humidity: "hwmon:sht3x/humidity1")),
                DerivedSensorConfiguration(
                    id: "derived:rack-rise", formula: .difference(of: "hwmon:outlet/temp1", minus: "hwmon:inlet/temp1"),
                    maxAge: .seconds(30)),
            ])
    }

    @Test func badDerivedEntriesAreConfigurationErrorsWithTheirKeyPath() {
        #expect(
            Self.configErrors(#"[ { id: "a", difference: { of: "hwmon:*/temp1", minus: "sim:b" } } ]"#) == [
                #"c.json5: derived[0].difference.of: must be a full sensor id, not a glob: "hwmon:*/temp1""#
            ])
        #expect(
            Self.configErrors(#"[ { id: "a", difference: { of: "derived:b", minus: "sim:b" } } ]"#) == [
                #"c.json5: derived[0].difference.of: a derived sensor cannot read another derived sensor ("derived:b")"#
            ])
        #expect(
            Self.configErrors(#"[ { id: "a", difference: { of: "sim:a", minus: "b" } } ]"#) == [
                #"c.json5: derived[0].difference.minus: must be a full sensor id (SOURCE:NAME, e.g. "hwmon:sht3x-i2c-1-44/temp1"): "b""#
            ])
        #expect(
            Self.configErrors(
                #"[ { id: "a", difference: { of: "sim:a", minus: "sim:b" } }, { id: "a", dewpoint: { temperature: "sim:a", humidity: "sim:b" } } ]"#
            ) == [
                #"c.json5: derived[1].id: derived sensor "derived:a" is already defined by derived[0]"#
            ])
        #expect(
            Self.configErrors(#"[ { id: "a" } ]"#) == [
                #"c.json5: derived[0]: needs one formula: dewpoint or difference"#
            ])
        #expect(
            Self.configErrors(
                #"[ { id: "a", difference: { of: "sim:a", minus: "sim:b" }, dewpoint: { temperature: "sim:a", humidity: "sim:b" } } ]"#
            ) == [
                #"c.json5: derived[0]: has more than one formula (dewpoint, difference); a derived sensor takes exactly one"#
            ])
        #expect(
            Self.configErrors(#"[ { id: "a", difference: { of: "sim:a", minus: "sim:b" }, maxage: "1s" } ]"#).count == 1
        )
        #expect(
            Self.configErrors(#"[ { id: "a", dewpoint: { temperature: "sim:a", humidity: "sim:b" }, maxAge: "0s" } ]"#)
                .count == 1)
    }

    // MARK: - simulate

    /// Runs `rules` with `derived` over two scenarios (JSON5 texts); returns the JSON lines.
    static func simulate(rules: String, derived: String, scenarios: [String]) async throws -> [String] {
        let dir = TemporaryDirectory()
        var sources: [String] = []
        for (i, s) in scenarios.enumerated() {
            dir.write("s\(i).json5", s)
            sources.append("{ type: \"simulated\", scenario: \"s\(i).json5\" }")
        }
        dir.write(
            "config.json5", "{ sources: [\(sources.joined(separator: ","))], rules: \(rules), derived: \(derived) }")
        let configuration = try ConfigLoader.load(path: dir.root + "/config.json5")
        let events = await Simulator.run(
            scenarios: configuration.sources.compactMap(\.scenario), rules: configuration.rules,
            derived: configuration.derived)
        return events.map(EventFormatter.json)
    }

    @Test func simulateUsesEachInputsReadingAtTheDerivedTimeAcrossScenarios() async throws {
        // Scenario 0 polls every 10 s and delivers its explicit sample at 3 s with the poll at
        // 10 s, after scenario 1's polls at 4…9 s. The difference at 3 s must use b at 3 s
        // (50), not b's latest poll (90): 60 − 50 = 10 > 5 fires; 60 − 90 would not.
        let out = try await Self.simulate(
            rules: #"[ { name: "gap", sensor: "derived:gap", above: 5 } ]"#,
            derived: #"[ { id: "gap", difference: { of: "sim:a", minus: "sim:b" }, maxAge: "1h" } ]"#,
            scenarios: [
                #"{ duration: "10s", step: "10s", sensors: [ { id: "a", quantity: "temperature", samples: [[0, 0], [3, 60]] } ] }"#,
                #"{ duration: "10s", step: "1s", sensors: [ { id: "b", quantity: "temperature", samples: [[0, 0], [3, 50], [4, 90], [10, 90]] } ] }"#,
            ])
        #expect(
            out == [
                SimulatorSpecTests.line("3.0", "firing", "gap", "derived:gap", "10", "5"),
                SimulatorSpecTests.line("4.0", "resolved", "gap", "derived:gap", "-30", "5"),
            ])
    }

    @Test func aDerivedSensorWithoutInputsGoesStaleFromTheStartOfTheRun() async throws {
        let out = try await Self.simulate(
            rules: #"[ { name: "quiet", sensor: "derived:*", stale: "3s" } ]"#,
            derived: #"[ { id: "gone", difference: { of: "sim:x", minus: "sim:y" } } ]"#,
            scenarios: [
                #"{ duration: "5s", step: "1s", sensors: [ { id: "a", quantity: "temperature", start: 20 } ] }"#
            ])
        #expect(
            out == [
                #"{"time":3.0,"event":"firing","rule":"quiet","sensor":"derived:gone","severity":"warning","value":null,"threshold":3}"#
            ])
    }

    @Test func aDewPointRuleFiresOnTheDerivedValue() async throws {
        let out = try await Self.simulate(
            rules: #"[ { name: "condensation", sensor: "derived:dew", above: 16 } ]"#,
            derived: #"[ { id: "dew", dewpoint: { temperature: "sim:t", humidity: "sim:h" } } ]"#,
            scenarios: [
                #"{ sensors: [ { id: "t", quantity: "temperature", samples: [[0, 25], [1, 25]] }, { id: "h", quantity: "humidity", samples: [[0, 50], [1, 60]] } ] }"#
            ])
        let dew = (try? DerivedFormula.dewPoint(temperature: 25, humidity: 60).get())!
        #expect(
            out == [
                SimulatorSpecTests.line("1.0", "firing", "condensation", "derived:dew", NumberText.number(dew), "16")
            ])
    }
}
