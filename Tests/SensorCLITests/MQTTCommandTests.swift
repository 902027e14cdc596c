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
        #expect(await MQTTCommand.run(["--broker", "mqtt://h"]) == .usage)
        #expect(await MQTTCommand.run(["extra"]) == .usage)
        #expect(await MQTTCommand.run(["--help"]) == .success)
    }

    @Test func withoutAnMQTTSectionOrAStreamItIsAConfigurationError() async {
        let files = TemporaryDirectory()
        #expect(await MQTTCommand.run(["--config", files.write("none.json5", "{}")]) == .config)
        let off = files.write("off.json5", "{ liveSocket: false, mqtt: { broker: \"mqtt://127.0.0.1:18899\" } }")
        #expect(await MQTTCommand.run(["--config", off]) == .config)
        #expect(await MQTTCommand.run(["--config", files.path("missing.json5")]) == .config)
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
        #expect(await MQTTCommand.run(["--config", path]) == .config)
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
