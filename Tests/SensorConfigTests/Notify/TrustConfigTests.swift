@testable import SensorConfig
import SensorTestKit
import Testing

/// The top-level `trust` key (SPEC §17): each list replaces its default, every problem at
/// its key path.
struct TrustConfigTests {
    @Test(arguments: [
        ("{ trust: [] }", ["trust: expected an object, found an array"]),
        ("{ trust: { unit: [] } }", ["trust.unit: unknown key (did you mean \"units\"?)"]),
        ("{ trust: { units: \"sensorwatch.service\" } }", ["trust.units: expected an array, found a string"]),
        (
            "{ trust: { units: [\"\"] } }",
            ["trust.units[0]: expected a unit name such as \"sensorwatch.service\", found \"\""]
        ),
        (
            "{ trust: { units: [\"sensorwatch\"] } }",
            ["trust.units[0]: expected a unit name such as \"sensorwatch.service\", found \"sensorwatch\""]
        ),
        ("{ trust: { units: [3] } }", ["trust.units[0]: expected a string, found a number"]),
        ("{ trust: { uids: [-1] } }", ["trust.uids[0]: expected a uid from 0 to 4294967294, found -1"]),
        ("{ trust: { uids: [4294967295] } }", ["trust.uids[0]: expected a uid from 0 to 4294967294, found 4294967295"]),
        ("{ trust: { uids: [0.5] } }", ["trust.uids[0]: expected a whole number, found 0.5"]),
        (
            "{ trust: { units: [], uids: [] } }",
            ["trust: trusts no unit and no uid: notify would deliver nothing and history list nothing"]
        ),
    ])
    func reportsEachProblemAtItsKeyPath(text: String, expected: [String]) {
        #expect(TemporaryDirectory.configErrors(of: text) == expected.map { "c.json5: " + $0 })
    }

    @Test func withoutTheKeyTheDaemonsUnitAndRootAreTrusted() throws {
        let files = TemporaryDirectory()
        let path = files.write("c.json5", "{}")
        #expect(try ConfigLoader.load(path: path).trust == JournalTrust(units: ["sensorwatch.service"], uids: [0]))
    }

    @Test func eachListGivenReplacesItsDefault() throws {
        let files = TemporaryDirectory()
        let both = files.write(
            "both.json5", "{ trust: { units: [\"sw-lab.service\", \"sw-lab.service\"], uids: [998] } }")
        #expect(try ConfigLoader.load(path: both).trust == JournalTrust(units: ["sw-lab.service"], uids: [998]))
        let units = files.write("units.json5", "{ trust: { units: [\"sw-lab.service\"] } }")
        #expect(try ConfigLoader.load(path: units).trust == JournalTrust(units: ["sw-lab.service"], uids: [0]))
        let noRoot = files.write("uids.json5", "{ trust: { uids: [] } }")
        #expect(try ConfigLoader.load(path: noRoot).trust == JournalTrust(units: ["sensorwatch.service"], uids: []))
    }
}
