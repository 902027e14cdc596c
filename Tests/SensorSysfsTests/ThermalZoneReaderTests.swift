import Dispatch
import Glibc
import SensorConfig
import SensorCore
import SensorSysfs
import SensorTestKit
import Testing
import SensorRuntime
#if canImport(Glibc)
#endif

@Suite struct ThermalZoneReaderTests {
    static func reader(
        _ root: String, io: any SysfsIO = PosixSysfsIO(), include: [String] = [], exclude: [String] = []
    ) throws -> SysfsReader {
        let config = SourceConfiguration(
            kind: .thermal, interval: .seconds(1), root: root,
            include: try include.map { try Glob($0) }, exclude: try exclude.map { try Glob($0) })
        return SysfsReader(configuration: config, io: io)
    }

    static func twoZones() -> TemporaryDirectory {
        let tree = TemporaryDirectory()
        tree.write([
            "thermal_zone0/type": "acpitz\n", "thermal_zone0/temp": "45000\n",
            "thermal_zone1/type": "x86_pkg_temp\n", "thermal_zone1/temp": "27800\n",
            "cooling_device0/type": "Processor\n",
        ])
        return tree
    }

    @Test func readsTheNodeExporterFixture() throws {
        let fixture = TemporaryDirectory.fixture("node_exporter_sys")
        let reader = try Self.reader(fixture.path("sys/class/thermal"))
        #expect(
            reader.discover() == [SensorInfo(id: "thermal:cpu-thermal", label: "cpu-thermal", quantity: .temperature)])
        #expect(reader.samples(at: .zero) == [Sample(sensor: "thermal:cpu-thermal", time: .zero, value: 12.376)])
    }

    @Test func readsTheProcfsFixtureIncludingNegativeTemperatures() throws {
        let fixture = TemporaryDirectory.fixture("procfs_sys")
        let reader = try Self.reader(fixture.path("sys/class/thermal"))
        #expect(reader.discover().map(\.label) == ["acpitz", "bcm2835_thermal"])
        #expect(reader.samples(at: .zero).map(\.value) == [-44, 49.925])
    }

    static let errnos: [(Int32, String)] = [
        (EIO, "EIO (Input/output error)"),
        (ENODATA, "ENODATA (No data available)"),
        (EAGAIN, "EAGAIN (Resource temporarily unavailable)"),
        (ETIMEDOUT, "ETIMEDOUT (Connection timed out)"),
        (ENODEV, "ENODEV (No such device)"),
        (EINVAL, "EINVAL (Invalid argument)"),
        (EREMOTEIO, "EREMOTEIO (Remote I/O error)"),
        (EMFILE, "EMFILE (Too many open files)"),
    ]

    @Test(arguments: errnos)
    func aFailedReadIsAFaultOfThatZoneOnly(errno: Int32, reason: String) throws {
        let tree = Self.twoZones()
        let io = SysfsFaultIO()
        io.failReads("thermal_zone1/temp", errno: errno)
        let samples = try Self.reader(tree.root, io: io).samples(at: .seconds(3))
        #expect(
            samples == [
                Sample(sensor: "thermal:acpitz", time: .seconds(3), value: 45),
                Sample(sensor: "thermal:x86_pkg_temp", time: .seconds(3), fault: .system(errno: errno)),
            ])
        #expect(samples.last?.fault?.description == reason)
    }

    static let garbage: [(String, String)] = [
        ("", "empty"),
        ("\n", "empty"),
        ("abc\n", "not a number: \"abc\""),
        ("12\u{0}34\n", "not a number: \"12\\x0034\""),
        ("-274000\n", "out of range: -274.0 °C"),
        ("-273150\n", "out of range: -273.15 °C"),
        (String(repeating: "9", count: 200), "not a number: \"" + String(repeating: "9", count: 40) + "…\""),
    ]

    @Test(arguments: garbage)
    func garbageAndSentinelsAreFaultsNotValues(content: String, reason: String) throws {
        let tree = Self.twoZones()
        tree.write("thermal_zone0/temp", content)
        let samples = try Self.reader(tree.root).samples(at: .zero)
        #expect(samples.first == Sample(sensor: "thermal:acpitz", time: .zero, fault: .other(reason)))
        #expect(samples.last?.value == 27.8)
    }

    @Test func opensEachAttributeOnceAndRereadsItInPlace() throws {
        let tree = Self.twoZones()
        let io = SysfsFaultIO()
        let reader = try Self.reader(tree.root, io: io)
        _ = reader.discover()
        #expect(reader.samples(at: .zero).first?.value == 45)
        tree.write("thermal_zone0/temp", "51500\n")
        #expect(reader.samples(at: .seconds(1)).first?.value == 51.5)
        _ = reader.samples(at: .seconds(2))
        #expect(io.opens("thermal_zone0/temp") == 1)
        #expect(io.opens("thermal_zone1/temp") == 1)
    }

    @Test func reopensAfterENODEVAndReadsTheNewDevice() throws {
        let tree = Self.twoZones()
        let io = SysfsFaultIO()
        let reader = try Self.reader(tree.root, io: io)
        _ = reader.samples(at: .zero)
        io.failReads("thermal_zone0/temp", once: [ENODEV])
        #expect(reader.samples(at: .seconds(1)).first == Sample(sensor: "thermal:acpitz", time: .seconds(1), value: 45))
        #expect(io.opens("thermal_zone0/temp") == 2)
        #expect(io.closes("thermal_zone0/temp") == 1)
    }

    @Test func aVanishedAttributeIsAFaultUntilItComesBack() throws {
        let tree = Self.twoZones()
        let io = SysfsFaultIO()
        let reader = try Self.reader(tree.root, io: io)
        _ = reader.samples(at: .zero)
        tree.remove("thermal_zone0/temp")
        io.failReads("thermal_zone0/temp", once: [ENODEV])
        #expect(reader.samples(at: .seconds(1)).first?.fault == .system(errno: ENOENT))
        tree.write("thermal_zone0/temp", "40000\n")
        #expect(reader.samples(at: .seconds(2)).first?.value == 40)
    }

    @Test func rediscoveryPicksUpNewZonesAndClosesVanishedOnes() throws {
        let tree = Self.twoZones()
        let io = SysfsFaultIO()
        let reader = try Self.reader(tree.root, io: io)
        _ = reader.discover()
        _ = reader.samples(at: .zero)
        tree.write(["thermal_zone2/type": "iwlwifi_1\n", "thermal_zone2/temp": "38000\n"])
        tree.remove("thermal_zone1")
        #expect(reader.discover().map(\.id) == ["thermal:acpitz", "thermal:iwlwifi_1"])
        #expect(io.closes("thermal_zone1/temp") == 1)
        #expect(reader.samples(at: .seconds(1)).map(\.value) == [45, 38])
        #expect(io.opens("thermal_zone0/temp") == 1)
        #expect(io.openCount == 2)
    }

    @Test func includeAndExcludeFilterIds() throws {
        let tree = Self.twoZones()
        tree.write(["thermal_zone2/type": "iwlwifi_1\n", "thermal_zone2/temp": "38000\n"])
        let reader = try Self.reader(
            tree.root, include: ["thermal:acpitz", "thermal:x86_pkg_temp", "thermal:iwl*"], exclude: ["*pkg_temp"])
        #expect(reader.discover().map(\.id) == ["thermal:acpitz", "thermal:iwlwifi_1"])
    }

    @Test func aMissingRootHasNoSensors() throws {
        let reader = try Self.reader("/nonexistent/sensorwatch/thermal")
        #expect(reader.discover().isEmpty)
        #expect(reader.samples(at: .zero).isEmpty)
    }

    @Test func aBlockingReadStallsOnlyItsOwnReader() async throws {
        let stuckTree = Self.twoZones()
        stuckTree.remove("thermal_zone1/temp")
        stuckTree.fifo("thermal_zone1/temp")
        let stuck = try Self.reader(stuckTree.root)
        let healthyTree = Self.twoZones()
        let healthy = try Self.reader(healthyTree.root)

        let done = DispatchSemaphore(value: 0)
        let result = SysfsSampleBox()
        DispatchQueue.global().async {
            result.set(stuck.samples(at: .seconds(1)))
            done.signal()
        }
        // The stuck reader's thread sits in open(2) on the FIFO; the other keeps polling.
        for i in 0..<5 {
            #expect(healthy.samples(at: .seconds(Double(i))).map(\.value) == [45, 27.8])
        }
        #expect(done.wait(timeout: .now()) == .timedOut)

        // A writer releases it, as a driver that finally answers; pread on a FIFO then fails.
        let writer = open(stuckTree.path("thermal_zone1/temp"), O_WRONLY)
        close(writer)
        #expect(done.wait(timeout: .now() + .seconds(60)) == .success, "failure guard only")
        #expect(result.get()?.first?.value == 45)
        #expect(result.get()?.last?.value == nil)
    }

    /// A reader's poll is aligned with its discovery, faults included, and a stale
    /// descriptor found by the batched read is reopened like any other.
    @Test func aReaderPollIsAlignedWithItsDiscovery() throws {
        let tree = TemporaryDirectory()
        tree.write([
            "thermal_zone0/type": "a\n", "thermal_zone0/temp": "45000\n",
            "thermal_zone1/type": "b\n", "thermal_zone1/temp": "oops\n",
            "thermal_zone2/type": "c\n", "thermal_zone2/temp": "-274000\n",
        ])
        let io = SysfsFaultIO()
        let reader = try Self.reader(tree.root, io: io)
        let sensors = reader.discover()
        let read = reader.poll(at: .zero)
        #expect(read.count == 1 && read[0].count == sensors.count)
        #expect(
            read[0].samples(of: sensors).map { $0.fault ?? "ok" } == [
                "ok", "not a number: \"oops\"", "out of range: -274.0 °C",
            ])
        io.failReads("thermal_zone0/temp", once: [ENODEV])
        #expect(reader.poll(at: .seconds(1)).first?.value(at: 0) == 45)
        #expect(io.opens("thermal_zone0/temp") == 2)
        #expect(io.closes("thermal_zone0/temp") == 1)
    }
}
