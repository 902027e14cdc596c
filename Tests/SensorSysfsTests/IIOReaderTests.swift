#if canImport(Glibc)
import Glibc
#endif
import SensorConfig
import SensorCore
import SensorSysfs
import SensorTestKit
import Testing
import SensorRuntime

@Suite struct IIOReaderTests {
    static func reader(_ root: String, io: any SysfsIO = PosixSysfsIO()) -> SysfsReader {
        SysfsReader(configuration: SourceConfiguration(kind: .iio, interval: .seconds(1), root: root), io: io)
    }

    /// A BME280 as a 6.6 kernel shows it (the listing quoted in sysfs-reference §5).
    static func bme280(_ tree: TemporaryDirectory, at dir: String = "iio:device0") {
        tree.write([
            "\(dir)/name": "bme280\n",
            "\(dir)/in_temp_input": "24380\n",
            "\(dir)/in_pressure_input": "102.129031250\n",
            "\(dir)/in_humidityrelative_input": "39396\n",
            "\(dir)/in_temp_oversampling_ratio": "2\n",
            "\(dir)/in_pressure_oversampling_ratio": "16\n",
            "\(dir)/in_humidityrelative_oversampling_ratio": "16\n",
            "\(dir)/uevent": "OF_NAME=bme280\n",
        ])
    }

    @Test func readsProcessedBme280Values() {
        let tree = TemporaryDirectory()
        Self.bme280(tree)
        let reader = Self.reader(tree.root)
        #expect(
            reader.discover() == [
                SensorInfo(id: "iio:bme280/humidityrelative", quantity: .humidity),
                SensorInfo(id: "iio:bme280/pressure", quantity: .pressure),
                SensorInfo(id: "iio:bme280/temp", quantity: .temperature),
            ])
        #expect(reader.samples(at: .zero).map(\.value) == [39.396, 1021.2903125, 24.38])
    }

    @Test func readsHdc100xRawWithOffsetAndScaleNamedByItsI2CAddress() {
        let tree = TemporaryDirectory()
        tree.write([
            "devices/i2c-1/1-0040/iio:device1/name": "1-0040\n",
            "devices/i2c-1/1-0040/iio:device1/in_temp_raw": "26000\n",
            "devices/i2c-1/1-0040/iio:device1/in_temp_offset": "-15887.515151\n",
            "devices/i2c-1/1-0040/iio:device1/in_temp_scale": "2.517700195\n",
            "devices/i2c-1/1-0040/iio:device1/in_humidityrelative_raw": "30000\n",
            "devices/i2c-1/1-0040/iio:device1/in_humidityrelative_scale": "1.525878906\n",
            "devices/i2c-1/1-0040/iio:device1/in_temp_integration_time": "0.006350\n",
            "devices/i2c-1/1-0040/iio:device1/out_current_heater_raw": "0\n",
        ])
        tree.symlink("bus/iio/devices/iio:device1", to: "../../../devices/i2c-1/1-0040/iio:device1")
        let reader = Self.reader(tree.path("bus/iio/devices"))
        #expect(reader.discover().map(\.id) == ["iio:1-0040/humidityrelative", "iio:1-0040/temp"])
        let samples = reader.samples(at: .zero)
        let humidity: Double = 30000 * 1.525878906 / 1000
        let temp: Double = (26000 + -15887.515151) * 2.517700195 / 1000
        #expect(samples.map(\.value) == [humidity, temp])
        tree.write("devices/i2c-1/1-0040/iio:device1/in_temp_raw", "0\n")
        let cold = reader.samples(at: .seconds(1)).last!.value!
        #expect(abs(cold - -40) < 0.001)
    }

    @Test func readsBmp280RawTimesScale() {
        let tree = TemporaryDirectory()
        tree.write([
            "iio:device0/name": "bmp280\n",
            "iio:device0/in_temp_raw": "2438\n", "iio:device0/in_temp_scale": "10\n",
            "iio:device0/in_pressure_raw": "26145062\n", "iio:device0/in_pressure_scale": "0.000003906\n",
        ])
        let samples = Self.reader(tree.root).samples(at: .zero)
        #expect(samples.map(\.sensor) == ["iio:bmp280/pressure", "iio:bmp280/temp"])
        let pressure: Double = 26145062 * 0.000003906 * 10
        #expect(samples.map(\.value) == [pressure, 24.38])
    }

    @Test func processedWinsOverRawAndAMissingScaleIsOne() {
        let tree = TemporaryDirectory()
        tree.write([
            "iio:device0/name": "bme280\n",
            "iio:device0/in_temp_input": "24380\n", "iio:device0/in_temp_raw": "2438\n",
            "iio:device0/in_temp_scale": "10\n",
            "iio:device1/in_humidityrelative_raw": "41000\n",
        ])
        let samples = Self.reader(tree.root).samples(at: .zero)
        #expect(samples.map(\.sensor) == ["iio:bme280/temp", "iio:iio:device1/humidityrelative"])
        #expect(samples.map(\.value) == [24.38, 41])
    }

    @Test func indexedAndModifiedChannelsKeepTheirSuffix() {
        let tree = TemporaryDirectory()
        tree.write([
            "iio:device0/name": "mlx90614\n",
            "iio:device0/in_temp_ambient_raw": "15000\n", "iio:device0/in_temp_object_raw": "15100\n",
            "iio:device0/in_temp_offset": "-13657.500000\n", "iio:device0/in_temp_scale": "20\n",
            "iio:device0/in_temp0-temp1_raw": "3\n", "iio:device0/in_voltage0_raw": "1000\n",
            "iio:device1/name": "tmp006\n", "iio:device1/in_temp0_input": "21500\n",
            "iio:device1/in_temp1_input": "22500\n",
        ])
        let samples = Self.reader(tree.root).samples(at: .zero)
        #expect(
            samples.map(\.sensor) == [
                "iio:mlx90614/temp_ambient", "iio:mlx90614/temp_object", "iio:tmp006/temp0", "iio:tmp006/temp1",
            ])
        let ambient: Double = (15000 - 13657.5) * 20 / 1000
        let object: Double = (15100 - 13657.5) * 20 / 1000
        #expect(samples.map(\.value) == [ambient, object, 21.5, 22.5])
    }

    @Test func twoDevicesWithOneNameAreNumbered() {
        let tree = TemporaryDirectory()
        Self.bme280(tree, at: "iio:device0")
        Self.bme280(tree, at: "iio:device1")
        let ids = Self.reader(tree.root).discover().map(\.id.rawValue)
        #expect(ids.filter { $0.hasSuffix("/temp") } == ["iio:bme280.1/temp", "iio:bme280/temp"])
    }

    static let errnos: [(String, Int32, String)] = [
        ("in_temp_input", EIO, "EIO (Input/output error)"),
        ("in_temp_input", ETIMEDOUT, "ETIMEDOUT (Connection timed out)"),
        ("in_temp_input", EAGAIN, "EAGAIN (Resource temporarily unavailable)"),
        ("in_temp_input", ENODATA, "ENODATA (No data available)"),
    ]

    @Test(arguments: errnos)
    func aFailedChannelReadIsAFaultOfThatChannelOnly(file: String, errno: Int32, reason: String) {
        let tree = TemporaryDirectory()
        Self.bme280(tree)
        let io = SysfsFaultIO()
        io.failReads(file, errno: errno)
        let samples = Self.reader(tree.root, io: io).samples(at: .zero)
        #expect(samples.map { $0.fault?.description ?? "ok" } == ["ok", "ok", reason])
        #expect(samples.last?.fault?.errno == errno)
    }

    @Test func aFailedScaleOrOffsetReadIsAFaultWithWhereItFailed() {
        let tree = TemporaryDirectory()
        tree.write([
            "iio:device0/name": "1-0040\n",
            "iio:device0/in_temp_raw": "26000\n", "iio:device0/in_temp_offset": "junk\n",
            "iio:device0/in_temp_scale": "2.517700195\n",
            "iio:device0/in_humidityrelative_raw": "30000\n", "iio:device0/in_humidityrelative_scale": "1.5\n",
        ])
        let io = SysfsFaultIO()
        io.failReads("in_humidityrelative_scale", errno: EIO)
        let samples = Self.reader(tree.root, io: io).samples(at: .zero)
        #expect(samples.map(\.fault) == ["scale: EIO (Input/output error)", "offset: not a number: \"junk\""])
    }

    @Test func rawTemperaturesBelowAbsoluteZeroAreFaults() {
        let tree = TemporaryDirectory()
        tree.write([
            "iio:device0/name": "x\n", "iio:device0/in_temp_raw": "-30000\n", "iio:device0/in_temp_scale": "10\n",
        ])
        #expect(Self.reader(tree.root).samples(at: .zero).first?.fault == "out of range: -300.0 °C")
    }

    @Test func aDeviceThatAppearsIsPickedUpOnRediscovery() {
        let tree = TemporaryDirectory()
        tree.write(["iio_sysfs_trigger/uevent": "\n", "trigger0/name": "sysfstrig0\n"])
        let reader = Self.reader(tree.root)
        #expect(reader.discover().isEmpty)
        Self.bme280(tree, at: "iio:device3")
        #expect(reader.discover().count == 3)
    }
}
