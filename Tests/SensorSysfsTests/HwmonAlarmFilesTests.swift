import SensorConfig
import SensorSysfs
import SensorTestKit
import Testing
import SensorCore
import SensorRuntime
/// hwmon's alarm files (SPEC §16b): found with their channel, read with every poll of the
/// value through the descriptor kept open, and carried in the readings as limit names.
@Suite struct HwmonAlarmFilesTests {
    @Test func everyPollReadsTheAlarmFilesWithTheValue() {
        let files = TemporaryDirectory()
        files.write([
            "hwmon0/name": "nct6798\n",
            "hwmon0/temp1_input": "45000\n", "hwmon0/temp1_crit": "100000\n",
            "hwmon0/temp1_crit_alarm": "1\n", "hwmon0/temp1_max_alarm": "0\n",
            "hwmon0/temp2_input": "30000\n",
            "hwmon0/fan1_input": "0\n", "hwmon0/fan1_alarm": "1\n", "hwmon0/fan1_min_alarm": "1\n",
            // An alarm file that cannot be parsed is not set.
            "hwmon0/in0_input": "1200\n", "hwmon0/in0_alarm": "x\n",
        ])
        let reader = SysfsReader(
            configuration: SourceConfiguration(kind: .hwmon, interval: .seconds(1), root: files.root))
        let ids = reader.discover().map(\.id.rawValue)
        func alarms() -> [String: [String]] {
            let values = reader.poll(at: .zero)[0]
            return Dictionary(
                uniqueKeysWithValues: ids.indices.map {
                    (String(ids[$0].split(separator: "/").last!), values.alarms(at: $0).list)
                })
        }
        #expect(alarms() == ["temp1": ["crit"], "temp2": [], "fan1": ["alarm", "min"], "in0": []])
        // Rewritten in place (the descriptor stays open and is read again at offset 0).
        files.write("hwmon0/temp1_crit_alarm", "0\n")
        files.write("hwmon0/in0_alarm", "1\n")
        #expect(alarms() == ["temp1": [], "temp2": [], "fan1": ["alarm", "min"], "in0": ["alarm"]])
        // The value is read as before.
        let values = reader.poll(at: .zero)[0]
        #expect(values.value(at: ids.firstIndex { $0.hasSuffix("/temp1") }!) == 45)
    }
}
