#if canImport(Glibc)
import Glibc
#endif
import SensorConfig
import SensorCore
import SensorSysfs
import SensorTestKit
import Testing
import SensorRuntime

/// Older sht3x drivers print a failed read's negative errno as the value, but a real sht3x
/// also reads −0.001…−0.137 °C near freezing (SPEC §4): a humidity of −1…−133 milli-%RH is
/// always an error, a temperature of −1…−133 m°C only when the chip's humidity failed too.
@Suite struct HwmonSht3xTests {
    static func reader(_ root: String, io: any SysfsIO = PosixSysfsIO(), exclude: [String] = []) -> SysfsReader {
        SysfsReader(
            configuration: SourceConfiguration(
                kind: .hwmon, interval: .seconds(1), root: root, exclude: exclude.map { try! Glob($0) }),
            io: io)
    }

    /// An sht3x chip reading `temperature` and `humidity` (the files' text, without newline).
    static func chip(temperature: String, humidity: String, name: String = "sht3x") -> TemporaryDirectory {
        let tree = TemporaryDirectory()
        tree.write([
            "hwmon0/name": name + "\n", "hwmon0/temp1_input": temperature + "\n",
            "hwmon0/humidity1_input": humidity + "\n",
        ])
        return tree
    }

    /// `id: value` or `id: fault` of each sample.
    static func readings(_ samples: [Sample]) -> [String] {
        samples.map { "\($0.sensor): " + ($0.value.map { "\($0)" } ?? $0.fault?.description ?? "?") }
    }

    @Test(arguments: ["-1", "-5", "-110", "-133"])
    func aTemperatureJustBelowFreezingWithAGoodHumidityIsAValue(millidegrees: String) {
        let tree = Self.chip(temperature: millidegrees, humidity: "45120")
        #expect(
            Self.readings(Self.reader(tree.root).samples(at: .zero)) == [
                "hwmon:sht3x-virtual-0/humidity1: 45.12",
                "hwmon:sht3x-virtual-0/temp1: \(Double(millidegrees)! / 1000)",
            ])
    }

    @Test func withAHumidityPrintedAsAnErrnoBothAreFaults() {
        let tree = Self.chip(temperature: "-5", humidity: "-5")
        #expect(
            Self.readings(Self.reader(tree.root).samples(at: .zero)) == [
                "hwmon:sht3x-virtual-0/humidity1: driver error -5 printed as a value",
                "hwmon:sht3x-virtual-0/temp1: driver error -5 printed as a value (the humidity read failed too)",
            ])
    }

    @Test func withAHumidityReadThatFailsTheTemperatureIsAFault() {
        let tree = Self.chip(temperature: "-121", humidity: "45120")
        let io = SysfsFaultIO()
        io.failReads("humidity1_input", errno: EIO)
        #expect(
            Self.readings(Self.reader(tree.root, io: io).samples(at: .zero)) == [
                "hwmon:sht3x-virtual-0/humidity1: EIO (Input/output error)",
                "hwmon:sht3x-virtual-0/temp1: driver error -121 printed as a value (the humidity read failed too)",
            ])
    }

    @Test func theHumidityOfTheSamePollDecides() {
        let tree = Self.chip(temperature: "-5", humidity: "45120")
        let io = SysfsFaultIO()
        let reader = Self.reader(tree.root, io: io)
        io.failReads("humidity1_input", once: [EIO])
        #expect(reader.samples(at: .zero).last?.fault != nil)
        #expect(reader.samples(at: .seconds(1)).last?.value == -0.005)
    }

    @Test func aHumidityOutsideThePollIsReadToDecide() {
        let good = Self.chip(temperature: "-5", humidity: "45120")
        let reader = Self.reader(good.root, exclude: ["*/humidity1"])
        #expect(Self.readings(reader.samples(at: .zero)) == ["hwmon:sht3x-virtual-0/temp1: -0.005"])
        good.write("hwmon0/humidity1_input", "-5\n")
        #expect(
            Self.readings(reader.samples(at: .seconds(1))) == [
                "hwmon:sht3x-virtual-0/temp1: driver error -5 printed as a value (the humidity read failed too)"
            ])
    }

    @Test func theHumidityWitnessKeepsOneDescriptorAcrossRediscovery() {
        let tree = Self.chip(temperature: "-5", humidity: "45120")
        let io = SysfsFaultIO()
        let reader = Self.reader(tree.root, io: io, exclude: ["*/humidity1"])
        for i in 0..<3 {
            _ = reader.discover()
            #expect(reader.samples(at: .seconds(Double(i))).first?.value == -0.005)
        }
        #expect(io.opens("humidity1_input") == 1)
        #expect(io.openCount == 2)
    }

    @Test func anSts3xHasNoHumiditySoItsTemperatureStands() {
        let tree = TemporaryDirectory()
        tree.write(["hwmon0/name": "sts3x\n", "hwmon0/temp1_input": "-5\n"])
        #expect(Self.readings(Self.reader(tree.root).samples(at: .zero)) == ["hwmon:sts3x-virtual-0/temp1: -0.005"])
    }

    @Test func aTemperatureFarBelowFreezingIsAlwaysAValue() {
        let tree = Self.chip(temperature: "-134", humidity: "-5")
        #expect(Self.readings(Self.reader(tree.root).samples(at: .zero)).last == "hwmon:sht3x-virtual-0/temp1: -0.134")
    }
}
