#if canImport(Glibc)
import Glibc
#endif
@testable import SensorConfig
@testable import SensorCore
@testable import SensorSimulation
import Testing

struct ConfigShippedFilesTests {
    /// The repository's `config/` directory, found from this file's path.
    private static let configDirectory: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path + "/config"
    }()

    private static var scenarioFiles: [String] {
        guard let dir = opendir(configDirectory + "/scenarios") else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = String(
                cString: (UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!)
                    .assumingMemoryBound(to: CChar.self))
            if name.hasSuffix(".json5") { names.append(name) }
        }
        return names.sorted()
    }

    @Test func defaultConfigLoadsWithThermalHwmonAndTheDemoScenario() throws {
        let config = try ConfigLoader.load(path: Self.configDirectory + "/sensorwatch.json5")
        #expect(config.sources.map(\.kind) == [.thermal, .hwmon, .simulated])
        let simulated = config.sources[2]
        #expect(simulated.interval == .milliseconds(100))
        #expect(simulated.scenarioPath == Self.configDirectory + "/scenarios/demo.json5")
        #expect(simulated.scenario?.sensors.map(\.id) == ["cpu", "room", "baro", "outdoor"])
        #expect(Set(config.rules.map(\.condition.kind)) == [.above, .below, .fall, .stale, .alarm])
    }

    /// SPEC §16b: both shipped configurations watch the chips' own alarms.
    @Test func bothShippedConfigsHaveTheHwAlarmRule() throws {
        for name in ["sensorwatch.json5", "sensorwatch.example.json5"] {
            let rules = try ConfigLoader.load(path: Self.configDirectory + "/" + name).rules
            let rule = rules.first { $0.name == "hw-alarm" }
            #expect(
                rule?.condition == .alarm && rule?.severity == .warning && rule?.selector == SensorSelector(), "\(name)"
            )
        }
    }

    @Test func everyShippedScenarioLoads() throws {
        #expect(!Self.scenarioFiles.isEmpty)
        for name in Self.scenarioFiles {
            _ = try ScenarioLoader.load(path: Self.configDirectory + "/scenarios/" + name)
        }
    }

    @Test func demoScenarioCrossesEveryDemoRuleWithinItsMinute() throws {
        let demo = try ScenarioLoader.load(path: Self.configDirectory + "/scenarios/demo.json5")
        #expect(demo.duration == .seconds(60) && demo.loop)
        let samples = ScenarioSampler.samples(of: demo)
        func values(_ id: SensorID) -> [Double] { samples.filter { $0.sensor == id }.compactMap(\.value) }
        let cpu = values("sim:cpu")
        #expect(cpu.contains { $0 > 83 } && cpu.last! < 77)
        let room = values("sim:room")
        #expect(room.contains { $0 < 25 } && room.last! >= 28)
        let baro = values("sim:baro")
        #expect(baro.max()! - baro.min()! >= 3)
        let outdoorFaults = samples.filter { $0.sensor == "sim:outdoor" && $0.fault != nil }.count
        #expect(outdoorFaults >= 6)
    }
}
