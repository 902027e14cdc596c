#if canImport(Glibc)
import Glibc
#endif
@testable import SensorCLI
import SensorConfig
import SensorCore
import SensorTestKit
import Testing

/// `sensorwatch mqtt`'s exit statuses before it connects (sysexits): usage, configuration.
@Suite struct MQTTCommandTests {
    @Test func badCommandLinesAreUsageErrorsAndHelpExitsZero() async {
        #expect(await CLI.main(["mqtt", "--broker", "mqtt://h"]) == .usage)
        #expect(await CLI.main(["mqtt", "extra"]) == .usage)
        #expect(await CLI.main(["mqtt", "--help"]) == .success)
    }

    @Test func withoutAnMQTTSectionOrAStreamItIsAConfigurationError() async {
        let files = TemporaryDirectory()
        #expect(await CLI.main(["mqtt", "--config", files.write("none.json5", "{}")]) == .config)
        let off = files.write("off.json5", "{ liveSocket: false, mqtt: { broker: \"mqtt://127.0.0.1:18899\" } }")
        #expect(await CLI.main(["mqtt", "--config", off]) == .config)
        #expect(await CLI.main(["mqtt", "--config", files.path("missing.json5")]) == .config)
    }

    @Test func aCredentialThatCannotBeReadIsAConfigurationError() async {
        let files = TemporaryDirectory()
        let path = files.write(
            "c.json5",
            """
            { liveSocket: "\(files.path("live.sock"))",
              mqtt: { broker: "mqtt://127.0.0.1:18899", username: "u", credential: "nowhere" } }
            """)
        unsetenv("CREDENTIALS_DIRECTORY")
        #expect(await CLI.main(["mqtt", "--config", path]) == .config)
    }

    @Test func theIntervalOfASensorIsItsSources() {
        let sources = [
            SourceConfiguration(kind: .thermal, interval: .seconds(5), exclude: [try! Glob("thermal:acpitz*")]),
            SourceConfiguration(kind: .hwmon, interval: .seconds(2)),
        ]
        #expect(MQTTCommand.interval(of: "thermal:x86_pkg_temp", sources: sources, default: .seconds(1)) == .seconds(5))
        #expect(MQTTCommand.interval(of: "thermal:acpitz", sources: sources, default: .seconds(1)) == .seconds(1))
        #expect(
            MQTTCommand.interval(of: "hwmon:nct6775.656/temp1", sources: sources, default: .seconds(1)) == .seconds(2))
        #expect(MQTTCommand.interval(of: "sim:cpu", sources: sources, default: .seconds(1)) == .seconds(1))
    }
}
