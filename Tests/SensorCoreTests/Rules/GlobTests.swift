@testable import SensorCore
@testable import SensorRuntime
import Testing

struct GlobTests {
    @Test(arguments: [
        ("thermal:*", "thermal:thermal_zone0", true),
        ("thermal:*", "hwmon:coretemp/temp1", false),
        ("*", "sim:cpu", true),
        ("hwmon:coretemp*/temp?", "hwmon:coretemp.1/temp2", true),
        ("hwmon:coretemp*/temp?", "hwmon:coretemp.1/temp10", false),
        ("sim:[ab]*", "sim:baro", true),
        ("sim:[!ab]*", "sim:baro", false),
        ("sim:[a-c]pu", "sim:cpu", true),
        ("sim:\\*", "sim:*", true),
        ("sim:\\*", "sim:x", false),
        ("*a*b*c", "xxaxxbxxc", true),
        ("*a*b*c", "xxaxxcxxb", false),
    ])
    func matchesWholeIdOnly(pattern: String, id: String, expected: Bool) throws {
        #expect(try Glob(pattern).matches(id) == expected)
    }

    @Test(arguments: ["sim:[ab", "trailing\\", "sim:[z-a]"])
    func rejectsMalformedPatterns(pattern: String) {
        #expect(throws: SyntaxError.self) { try Glob(pattern) }
    }
}
