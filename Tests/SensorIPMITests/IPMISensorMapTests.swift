@testable import SensorIPMI
import SensorRuntime
import Testing
@testable import SensorCore
/// SPEC §23: ids, labels, quantities by unit and thresholds as §16's limits.
@Suite struct IPMISensorMapTests {
    @Test func idsNameTheBMCAndTheSDRsNameWithOddCharactersAsUnderscores() {
        let map = IPMISensorMap(bmc: "bmc-r1-01", records: IPMIRecord.simulator)
        #expect(
            map.entries.map(\.info.id.rawValue) == [
                "ipmi:bmc-r1-01/12V", "ipmi:bmc-r1-01/FAN1", "ipmi:bmc-r1-01/Inlet_Temp", "ipmi:bmc-r1-01/PSU1_Power",
                "ipmi:bmc-r1-01/PSU1_Status",
            ])
        #expect(map.entries.map(\.info.label).contains("Inlet Temp"))
        #expect(IPMISensorMap.idName("CPU\u{1b}[31m 1/Temp\n") == "CPU__31m_1_Temp_")
        #expect(IPMISensorMap.idName("Température") == "Temp_rature")
    }

    @Test func theLabelIsTheSDRsTextAsItIsHostileOrNot() {
        let map = IPMISensorMap(
            bmc: "b",
            records: [
                IPMIRecord(
                    recordID: 1, name: "Evil\u{1b}[2J\nName", sensorType: 1, eventReadingType: 1, baseUnit: 1,
                    isThreshold: true)
            ])
        // Kept as the SDR has it; every output escapes it (DisplayText, SPEC §19).
        #expect(map.entries.first?.info.label == "Evil\u{1b}[2J\nName")
        #expect(DisplayText.escaped(map.entries.first!.info.label) == "Evil\\x1b[2J\\nName")
    }

    @Test func twoSensorsOfOneNameTheSecondByRecordIDGetsDotOne() {
        let map = IPMISensorMap(
            bmc: "b",
            records: [
                IPMIRecord(
                    recordID: 9, name: "Temp", sensorType: 1, eventReadingType: 1, baseUnit: 1, isThreshold: true),
                IPMIRecord(
                    recordID: 3, name: "Temp", sensorType: 1, eventReadingType: 1, baseUnit: 1, isThreshold: true),
            ])
        #expect(map.entries.map(\.info.id.rawValue) == ["ipmi:b/Temp", "ipmi:b/Temp.1"])
        #expect(map.entries.map(\.index) == [1, 0])
    }

    @Test func quantitiesComeFromTheBaseUnitNotTheSensorType() {
        let map = IPMISensorMap(
            bmc: "b",
            records: IPMIRecord.simulator + [
                IPMIRecord(
                    recordID: 20, name: "Amps", sensorType: 3, eventReadingType: 1, baseUnit: 5, isThreshold: true),
                IPMIRecord(
                    recordID: 21, name: "Hours", sensorType: 0xc0, eventReadingType: 1, baseUnit: 22, isThreshold: true),
            ])
        let q = Dictionary(uniqueKeysWithValues: map.entries.map { ($0.info.label, $0.info.quantity) })
        #expect(
            q == [
                "Inlet Temp": .temperature, "FAN1": .fan, "12V": .voltage, "PSU1 Power": .power,
                "PSU1 Status": .state, "Amps": .current,
            ])
    }

    @Test func fahrenheitAndKelvinBecomeCelsius() {
        #expect(IPMISensorMap.convert(212, unit: 2) == 100)
        #expect(IPMISensorMap.convert(373.15, unit: 3) == 100)
        let map = IPMISensorMap(
            bmc: "b",
            records: [
                IPMIRecord(
                    recordID: 1, name: "F", sensorType: 1, eventReadingType: 1, baseUnit: 2, isThreshold: true,
                    thresholds: ["uc": 194])
            ])
        #expect(map.entries.first?.info.limits["crit"] == 90)
    }

    @Test func thresholdsAreTheLimitsOfSection16() {
        let map = IPMISensorMap(bmc: "b", records: IPMIRecord.simulator)
        let limits = Dictionary(uniqueKeysWithValues: map.entries.map { ($0.info.label, $0.info.limits.values) })
        #expect(limits["Inlet Temp"] == ["max": 40, "crit": 45, "emergency": 50])
        // A lower non-recoverable threshold has no name of §16.
        #expect(limits["FAN1"] == ["min": 1200, "lcrit": 600])
        #expect(limits["12V"] == ["min": 11.4, "lcrit": 10.8, "max": 12.6, "crit": 13.2])
        #expect(limits["PSU1 Power"] == ["crit": 800])
        #expect(limits["PSU1 Status"] == [:])
    }

    @Test func theSDRsHysteresisGivesEachLimitItsClearPoint() {
        let map = IPMISensorMap(
            bmc: "b",
            records: [
                IPMIRecord(
                    recordID: 1, name: "T", sensorType: 1, eventReadingType: 1, baseUnit: 1, isThreshold: true,
                    thresholds: ["uc": 90, "unc": 85], hysteresis: (positive: 2, negative: 0)),
                IPMIRecord(
                    recordID: 2, name: "F", sensorType: 4, eventReadingType: 1, baseUnit: 18, isThreshold: true,
                    thresholds: ["lc": 600, "lnc": 1200], hysteresis: (positive: 0, negative: 30)),
                IPMIRecord(
                    recordID: 3, name: "TF", sensorType: 1, eventReadingType: 1, baseUnit: 2, isThreshold: true,
                    thresholds: ["uc": 194], hysteresis: (positive: 9, negative: 9)),
            ])
        let limits = Dictionary(uniqueKeysWithValues: map.entries.map { ($0.info.label, $0.info.limits.values) })
        #expect(limits["T"] == ["crit": 90, "crit_hyst": 88, "max": 85, "max_hyst": 83])
        #expect(limits["F"] == ["lcrit": 600, "lcrit_hyst": 630, "min": 1200, "min_hyst": 1230])
        #expect(limits["TF"] == ["crit": 90, "crit_hyst": 85])
    }

    @Test func implausibleThresholdsAreIgnoredWithTheReason() {
        let map = IPMISensorMap(
            bmc: "b",
            records: [
                IPMIRecord(
                    recordID: 1, name: "T", sensorType: 1, eventReadingType: 1, baseUnit: 1, isThreshold: true,
                    thresholds: ["uc": 255, "unc": 0])
            ])
        #expect(map.entries.first?.info.limits.values == [:])
        #expect(map.entries.first?.info.limits.ignored.keys.sorted() == ["crit", "max"])
    }

    @Test func includeAndExcludeChooseByID() {
        let map = IPMISensorMap(bmc: "b", records: IPMIRecord.simulator) { $0.rawValue.hasSuffix("Temp") }
        #expect(map.entries.map(\.info.label) == ["Inlet Temp"])
    }
}
