import Dispatch
import Glibc
@testable import SensorConfig
@testable import SensorCore
@testable import SensorRuntime
@testable import SensorSysfs
import SensorTestKit
import Synchronization
import Testing
#if canImport(Glibc)
#endif

/// A file whose open or read blocks costs its own sensor only (SPEC §8): the sysfs readers
/// give a call stuck in one file up and go on without that file until its read returns.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct HungFileIsolationTests {
    static func twoZones() -> TemporaryDirectory {
        let tree = TemporaryDirectory()
        tree.write([
            "thermal_zone0/type": "acpitz\n", "thermal_zone0/temp": "45000\n",
            "thermal_zone1/type": "x86_pkg_temp\n", "thermal_zone1/temp": "27800\n",
        ])
        return tree
    }

    /// A call running on a thread of its own (as a poll thread would run it).
    final class Background: Sendable {
        private let finished = EventCount()

        init(_ body: @escaping @Sendable () -> Void) {
            DispatchQueue.global().async { [self] in
                body()
                finished.increment()
            }
        }

        /// Waits (without blocking a thread of the test's pool) until the call returned.
        func wait() async { #expect(await finished.until(1), "the call did not return") }
    }

    static func inBackground(_ body: @escaping @Sendable () -> Void) -> Background { Background(body) }

    /// Two zones, discovered; a poll on another thread, stuck in the file ending in `suffix`.
    static func pollStuck(in suffix: String) async throws -> (TemporaryDirectory, SysfsFaultIO, SysfsReader, Background)
    {
        let tree = twoZones()
        let io = SysfsFaultIO()
        let reader = try ThermalZoneReaderTests.reader(tree.root, io: io)
        _ = reader.discover()
        io.block(suffix)
        let stuck = inBackground { _ = reader.poll(at: .zero) }
        #expect(await io.blockedCalls.until(1))
        return (tree, io, reader, stuck)
    }

    static func readings(_ reader: some SensorReader, at seconds: Double) -> [String] {
        reader.samples(at: .seconds(seconds)).map { s in
            s.value.map { "\(s.sensor.rawValue)=\($0)" } ?? "\(s.sensor.rawValue): \(s.fault ?? "?")"
        }
    }

    @Test func aReadStuckForASecondIsGivenUpAndOnlyItsSensorFaults() async throws {
        let (tree, io, reader, stuck) = try await Self.pollStuck(in: "thermal_zone1/temp")
        // The tree is removed when it goes: keep it for the whole test.
        defer { withExtendedLifetime(tree) {} }
        // The watch looks twice a second; a call in the same file for a whole second is given up.
        #expect(!reader.isolateBlockedRead(now: .seconds(0.5)))
        #expect(!reader.isolateBlockedRead(now: .seconds(1.0)))
        #expect(reader.isolateBlockedRead(now: .seconds(1.5)))
        // A new call goes on at once, from this thread: the stuck file is not touched again.
        #expect(reader.discover().map(\.id) == ["thermal:acpitz", "thermal:x86_pkg_temp"])
        let opens = io.opens("thermal_zone1/temp")
        #expect(Self.readings(reader, at: 2) == ["thermal:acpitz=45.0", "thermal:x86_pkg_temp: read blocked for 1s"])
        #expect(Self.readings(reader, at: 3) == ["thermal:acpitz=45.0", "thermal:x86_pkg_temp: read blocked for 1s"])
        #expect(io.opens("thermal_zone1/temp") == opens)
        #expect(io.blockedCount == 1)
        // The read returns: the thread left in it does no more I/O, and the file reads again
        // after the next discovery, opened afresh.
        io.unblock("thermal_zone1/temp")
        await stuck.wait()
        _ = reader.discover()
        #expect(Self.readings(reader, at: 4) == ["thermal:acpitz=45.0", "thermal:x86_pkg_temp=27.8"])
        // The stuck open completed (and its descriptor was closed), then one fresh open.
        #expect(io.opens("thermal_zone1/temp") == opens + 2)
    }

    @Test func aPollThatMovesFromFileToFileIsNotGivenUp() async throws {
        let (tree, io, reader, stuck) = try await Self.pollStuck(in: "thermal_zone0/temp")
        // The tree is removed when it goes: keep it for the whole test.
        defer { withExtendedLifetime(tree) {} }
        #expect(!reader.isolateBlockedRead(now: .seconds(0.5)))
        // The file answers before a second has passed; the next file is a new look.
        io.unblock("thermal_zone0/temp")
        await stuck.wait()
        io.block("thermal_zone1/temp")
        let second = Self.inBackground { _ = reader.poll(at: .seconds(1)) }
        #expect(await io.blockedCalls.until(1))
        #expect(!reader.isolateBlockedRead(now: .seconds(1.2)))
        #expect(!reader.isolateBlockedRead(now: .seconds(2.0)))
        io.unblock("thermal_zone1/temp")
        await second.wait()
        #expect(!reader.isolateBlockedRead(now: .seconds(3)))
    }

    /// A zone whose type cannot be read is `thermal:thermal_zoneN` (SPEC §4) and a fault;
    /// once the type answers, the zone is named by it.
    @Test func aTypeThatBlocksAtDiscoveryFaultsItsZoneOnly() async throws {
        let tree = Self.twoZones()
        let io = SysfsFaultIO()
        let reader = try ThermalZoneReaderTests.reader(tree.root, io: io)
        io.block("thermal_zone1/type")
        let stuck = Self.inBackground { _ = reader.discover() }
        #expect(await io.blockedCalls.until(1))
        #expect(!reader.isolateBlockedRead(now: .zero))
        #expect(reader.isolateBlockedRead(now: .seconds(1)))
        #expect(reader.discover().map(\.label) == ["acpitz", ""])
        #expect(
            Self.readings(reader, at: 2) == ["thermal:acpitz=45.0", "thermal:thermal_zone1: type: read blocked for 1s"])
        io.unblock("thermal_zone1/type")
        await stuck.wait()
        #expect(reader.discover().map(\.label) == ["acpitz", "x86_pkg_temp"])
        #expect(Self.readings(reader, at: 3) == ["thermal:acpitz=45.0", "thermal:x86_pkg_temp=27.8"])
    }

    @Test func anHwmonLabelThatBlocksFaultsItsSensorAndABlockedChipNameLeavesOnlyThatChipOut() async throws {
        let tree = TemporaryDirectory()
        tree.write([
            "hwmon0/name": "coretemp\n", "hwmon0/temp1_input": "45000\n", "hwmon0/temp1_label": "Package id 0\n",
            "hwmon0/temp2_input": "47000\n", "hwmon0/temp2_label": "Core 0\n",
            "hwmon1/name": "nvme\n", "hwmon1/temp1_input": "38000\n",
            "hwmon2/name": "acpitz\n", "hwmon2/temp1_input": "27800\n",
        ])
        let io = SysfsFaultIO()
        let reader = SysfsReader(
            configuration: SourceConfiguration(kind: .hwmon, interval: .seconds(1), root: tree.root), io: io)
        io.block("hwmon0/temp2_label")
        io.block("hwmon1/name")
        let first = Self.inBackground { _ = reader.discover() }
        #expect(await io.blockedCalls.until(1))
        #expect(!reader.isolateBlockedRead(now: .zero))
        #expect(reader.isolateBlockedRead(now: .seconds(1)))
        let second = Self.inBackground { _ = reader.discover() }
        #expect(await io.blockedCalls.until(2))
        #expect(!reader.isolateBlockedRead(now: .seconds(1.5)))
        #expect(reader.isolateBlockedRead(now: .seconds(2.5)))
        #expect(
            reader.discover().map(\.id) == [
                "hwmon:acpitz-virtual-0/temp1", "hwmon:coretemp-virtual-0/temp1", "hwmon:coretemp-virtual-0/temp2",
            ])
        #expect(
            reader.leftOut == [
                tree.root + "/hwmon1/name: read blocked for 1s; its sensors are left out until it answers"
            ])
        #expect(
            Self.readings(reader, at: 3) == [
                "hwmon:acpitz-virtual-0/temp1=27.8", "hwmon:coretemp-virtual-0/temp1=45.0",
                "hwmon:coretemp-virtual-0/temp2: temp2_label: read blocked for 1s",
            ])
        io.unblock("hwmon0/temp2_label")
        io.unblock("hwmon1/name")
        await first.wait()
        await second.wait()
        #expect(
            reader.discover().map(\.id) == [
                "hwmon:acpitz-virtual-0/temp1", "hwmon:coretemp-virtual-0/temp1", "hwmon:coretemp-virtual-0/temp2",
                "hwmon:nvme-virtual-0/temp1",
            ])
        #expect(reader.leftOut.isEmpty)
        #expect(Self.readings(reader, at: 4).last == "hwmon:nvme-virtual-0/temp1=38.0")
    }

    @Test func aBlockedFileReplacedByAnotherIsReadAfterTheNextDiscovery() async throws {
        let (tree, io, reader, stuck) = try await Self.pollStuck(in: "thermal_zone1/temp")
        _ = reader.isolateBlockedRead(now: .zero)
        #expect(reader.isolateBlockedRead(now: .seconds(1)))
        _ = reader.discover()
        #expect(Self.readings(reader, at: 2).last == "thermal:x86_pkg_temp: read blocked for 1s")
        // A new file at the path (the device came back): the stuck read stays where it is,
        // the new file is opened at the next discovery.
        tree.write(["thermal_zone1/temp.new": "31000\n"])
        rename(tree.root + "/thermal_zone1/temp.new", tree.root + "/thermal_zone1/temp")
        io.letNewCallsThrough("thermal_zone1/temp")
        #expect(Self.readings(reader, at: 3).last == "thermal:x86_pkg_temp: read blocked for 1s")
        _ = reader.discover()
        #expect(Self.readings(reader, at: 4).last == "thermal:x86_pkg_temp=31.0")
        #expect(io.blockedCount == 1)
        io.unblock("thermal_zone1/temp")
        await stuck.wait()
    }

    @Test func aSensorWhoseReadFailedIsOpenedAfreshAtTheNextDiscovery() throws {
        let tree = Self.twoZones()
        let io = SysfsFaultIO()
        let reader = try ThermalZoneReaderTests.reader(tree.root, io: io)
        _ = reader.discover()
        _ = reader.poll(at: .zero)
        io.failReads("thermal_zone1/temp", once: [EIO])
        #expect(Self.readings(reader, at: 1).last == "thermal:x86_pkg_temp: EIO (Input/output error)")
        _ = reader.discover()
        #expect(io.closes("thermal_zone1/temp") == 1)
        #expect(Self.readings(reader, at: 2).last == "thermal:x86_pkg_temp=27.8")
        #expect(io.opens("thermal_zone1/temp") == 2)
        // A sensor that read fine keeps its descriptor.
        #expect(io.opens("thermal_zone0/temp") == 1)
    }
}
