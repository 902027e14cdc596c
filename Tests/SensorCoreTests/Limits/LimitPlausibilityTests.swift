@testable import SensorCore
@testable import SensorSysfs
import Testing

/// The plausibility rules of SPEC §16 on tables of limit files as found.
@Suite struct LimitPlausibilityTests {
    typealias Found = LimitPlausibility.Found

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var found: [String: Found]
        var limits: [String: Double]
        var ignored: [String: String] = [:]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "coretemp: max and crit with crit_hyst",
            found: ["max": .success(80), "crit": .success(100), "crit_hyst": .success(95)],
            limits: ["max": 80, "crit": 100, "crit_hyst": 95]),
        Case(
            name: "nvme: the sentinels of 0 K and 65535 K",
            found: ["max": .success(65261.85), "min": .success(-273.15), "crit": .success(84.85)],
            limits: ["crit": 84.85],
            ignored: ["max": "65261.85 °C is not a plausible limit", "min": "-273.15 °C is not a plausible limit"]),
        Case(
            name: "nct67xx: min = max = 0 is an unset chip",
            found: ["max": .success(0), "min": .success(0)], limits: [:],
            ignored: [
                "max": "0 °C is not a plausible limit",
                "min": "0 °C is not below the upper limit (0 °C)",
            ]),
        Case(
            name: "an upper limit of 250 °C or more is a sentinel",
            found: ["crit": .success(250), "max": .success(249.999)], limits: ["max": 249.999],
            ignored: ["crit": "250 °C is not a plausible limit"]),
        Case(
            name: "a lower limit at the lowest upper one, plausible or not, is ignored",
            found: ["min": .success(10), "max": .success(300), "crit": .success(10)], limits: ["crit": 10],
            ignored: ["max": "300 °C is not a plausible limit", "min": "10 °C is not below the upper limit (10 °C)"]),
        Case(
            name: "an implausible upper limit still bounds the lower ones",
            found: ["min": .success(5), "max": .success(0)], limits: [:],
            ignored: ["max": "0 °C is not a plausible limit", "min": "5 °C is not below the upper limit (0 °C)"]),
        Case(
            name: "lcrit and min below the upper limits",
            found: ["min": .success(5), "lcrit": .success(-10), "lcrit_hyst": .success(-5), "max": .success(60)],
            limits: ["min": 5, "lcrit": -10, "lcrit_hyst": -5, "max": 60]),
        Case(
            name: "a hyst above its upper limit or more than 50 °C below it is ignored",
            found: ["max": .success(80), "max_hyst": .success(81), "crit": .success(100), "crit_hyst": .success(49.9)],
            limits: ["max": 80, "crit": 100],
            ignored: [
                "max_hyst": "81 °C is not within 50 °C below max (80 °C)",
                "crit_hyst": "49.9 °C is not within 50 °C below crit (100 °C)",
            ]),
        Case(
            name: "a hyst exactly 50 °C below and one equal to its limit count",
            found: ["max": .success(80), "max_hyst": .success(80), "crit": .success(100), "crit_hyst": .success(50)],
            limits: ["max": 80, "max_hyst": 80, "crit": 100, "crit_hyst": 50]),
        Case(
            name: "the hyst of an ignored limit, and one without its limit, are ignored",
            found: ["max": .success(65261.85), "max_hyst": .success(60), "crit_hyst": .success(90)],
            limits: [:],
            ignored: [
                "max": "65261.85 °C is not a plausible limit", "max_hyst": "max is ignored",
                "crit_hyst": "crit is absent",
            ]),
        Case(
            name: "an unknown name's hyst has no limit to clear and the unknown name itself is no limit",
            found: ["max": .success(80), "foo": .success(90), "foo_hyst": .success(85)],
            limits: ["max": 80],
            ignored: ["foo_hyst": "foo is absent"]),
        Case(
            name: "a hyst that cannot be read is ignored with the reason, its limit kept",
            found: ["crit": .success(100), "crit_hyst": .failure(.other("read blocked"))],
            limits: ["crit": 100],
            ignored: ["crit_hyst": "read blocked"]),
        Case(
            name: "a lower hyst lies above its limit",
            found: ["min": .success(10), "min_hyst": .success(8), "max": .success(50)],
            limits: ["min": 10, "max": 50],
            ignored: ["min_hyst": "8 °C is not within 50 °C above min (10 °C)"]),
        Case(
            name: "files that cannot be read or hold no number are ignored with the reason",
            found: [
                "max": .failure(.other("read blocked")),
                "crit": .failure(.other("not a number: \"x\"")),
                "emergency": .success(110),
            ],
            limits: ["emergency": 110],
            ignored: ["max": "read blocked", "crit": "not a number: \"x\""]),
    ]

    @Test(arguments: cases) func judgesLimits(_ c: Case) {
        let limits = LimitPlausibility.judge(c.found, quantity: .temperature)
        #expect(limits.values == c.limits)
        #expect(limits.ignored == c.ignored)
    }

    @Test(arguments: Quantity.allCases) func everyHwmonLimitFileHasItsOwnSlot(_ quantity: Quantity) {
        let files = SysfsLimitFiles.files(of: quantity)
        let slots = SysfsLimitFiles.slots(of: quantity)
        #expect(slots.count == files.count)
        #expect(Set(slots).count == slots.count)
        for (file, slot) in zip(files, slots) { #expect(LimitPlausibility.slot(of: file) == slot) }
    }

    @Test func limitsAreShownLowerFirstEachWithItsHyst() {
        #expect(
            SensorLimits.ordered(["crit", "max", "crit_hyst", "min", "zz"]) == [
                "min", "max", "crit", "crit_hyst", "zz",
            ])
    }
}

extension LimitPlausibilityTests {
    /// Every plausible limit goes to the status file (a fan's `min` too, issue 34), its
    /// `max` and `crit` for `--check`; ignored ones do not.
    @Test func theStatusFileCarriesEveryLimitOfASensor() {
        let all = StatusLimits(SensorLimits(values: ["max": 80, "crit": 100, "crit_hyst": 95, "min": 5]))
        #expect(all == StatusLimits(values: ["max": 80, "crit": 100, "crit_hyst": 95, "min": 5]))
        #expect(all?.max == 80 && all?.crit == 100)
        #expect(all?.names == ["min", "max", "crit", "crit_hyst"])
        #expect(StatusLimits(SensorLimits(values: ["crit": 84.85])) == StatusLimits(crit: 84.85))
        #expect(
            StatusLimits(SensorLimits(values: ["min": 5], ignored: ["max": "0 °C is not a plausible limit"]))
                == StatusLimits(values: ["min": 5]))
        #expect(StatusLimits(SensorLimits(ignored: ["max": "0 °C is not a plausible limit"])) == nil)
    }
}
