import SensorConfig
import SensorSysfs
import SensorTestKit
import Testing
import SensorRuntime

/// `check` warns about ids of the form used before SPEC §4 named devices, and says what
/// each means on this machine (SPEC §20).
@Suite struct LegacySensorIDsTests {
    static func tree() -> TemporaryDirectory {
        let tree = TemporaryDirectory()
        tree.write([
            "thermal/thermal_zone0/type": "acpitz\n", "thermal/thermal_zone0/temp": "27800\n",
            "thermal/thermal_zone1/type": "x86_pkg_temp\n", "thermal/thermal_zone1/temp": "45000\n",
            "thermal/thermal_zone2/temp": "40000\n",
        ])
        for (n, (dev, name)) in [("coretemp.0", "coretemp"), ("coretemp.1", "coretemp")].enumerated() {
            tree.write([
                "devices/platform/\(dev)/hwmon/hwmon\(n)/name": name + "\n",
                "devices/platform/\(dev)/hwmon/hwmon\(n)/temp1_input": "45000\n",
            ])
            tree.symlink("devices/platform/\(dev)/subsystem", to: "../../../bus/platform")
            tree.symlink("devices/platform/\(dev)/hwmon/hwmon\(n)/device", to: "../..")
            tree.symlink("hwmon/hwmon\(n)", to: "../devices/platform/\(dev)/hwmon/hwmon\(n)")
        }
        return tree
    }

    static func warnings(_ tree: TemporaryDirectory, rules: String, filters: String = "") throws -> [String] {
        let text = """
            { sources: [{ type: "thermal", root: "\(tree.path("thermal"))" },
                        { type: "hwmon", root: "\(tree.path("hwmon"))"\(filters) }],
              rules: [\(rules)] }
            """
        let configuration = try ConfigLoader.load(contents: Array(text.utf8), path: "c.json5")
        return LegacySensorIDs.warnings(configuration).map(\.description)
    }

    @Test func oldIdsInRulesAndFiltersAreWarnedWithTheIdTheyMeanNow() throws {
        let tree = Self.tree()
        let rules = """
            { name: "a", sensor: "thermal:thermal_zone1", above: 90 },
            { name: "b", sensor: "hwmon:coretemp.1/temp*", above: 90 },
            { name: "c", sensor: "hwmon:nvme/temp1", above: 70 },
            """
        #expect(
            try Self.warnings(
                tree, rules: rules, filters: #", include: ["hwmon:coretemp/temp1"], exclude: ["thermal:thermal_zone0"]"#
            ) == [
                #"c.json5: rules[0].sensor: warning: "thermal:thermal_zone1" is an id of the form used before ids named devices (see SENSORS in man sensorwatch); on this machine it is "thermal:x86_pkg_temp""#,
                #"c.json5: rules[1].sensor: warning: "hwmon:coretemp.1/temp*" is an id of the form used before ids named devices (see SENSORS in man sensorwatch); on this machine it is "hwmon:coretemp-isa-0001/temp*""#,
                #"c.json5: rules[2].sensor: warning: "hwmon:nvme/temp1" is an id of the form used before ids named devices (see SENSORS in man sensorwatch); no sensor on this machine has it"#,
                #"c.json5: sources[1].include[0]: warning: "hwmon:coretemp/temp1" is an id of the form used before ids named devices (see SENSORS in man sensorwatch); on this machine it is "hwmon:coretemp-isa-0000/temp1""#,
                #"c.json5: sources[1].exclude[0]: warning: "thermal:thermal_zone0" is an id of the form used before ids named devices (see SENSORS in man sensorwatch); on this machine it is "thermal:acpitz""#,
            ])
    }

    @Test func newIdsGlobsAndZonesWithoutATypeAreNotWarned() throws {
        let rules = """
            { name: "a", sensor: "thermal:x86_pkg_temp", above: 90 },
            { name: "b", sensor: "hwmon:coretemp-isa-0000/temp1", above: 90 },
            { name: "c", sensor: "hwmon:*/temp1", above: 90 },
            { name: "d", sensor: "thermal:thermal_zone2", above: 90 },
            { name: "e", sensor: "hwmon:hwmon7/temp1", above: 90 },
            { name: "f", sensor: "thermal:*", above: 90 },
            { name: "g", quantity: "humidity", above: 90 },
            """
        #expect(try Self.warnings(Self.tree(), rules: rules).isEmpty)
    }
}
