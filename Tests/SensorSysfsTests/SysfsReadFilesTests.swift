#if canImport(Glibc)
import Glibc
#endif
@testable import SensorCore
@testable import SensorSysfs
import SensorTestKit
import Synchronization
import Testing
@testable import SensorRuntime
/// ``SysfsIO/readFiles(in:names:into:stride:lengths:progress:)``: the files of one directory
/// opened, read and closed in one call (a chip's labels and limit files at discovery), and a
/// file in the middle that blocks costs that file only (SPEC §8).
@Suite(.serialized, .timeLimit(.minutes(1)))
struct SysfsReadFilesTests {
    static let stride = 16

    /// What each file of `names` gave: its trimmed text, or its negative result.
    static func read(
        _ io: any SysfsIO, in dir: String, _ names: [String], preset: [Int: Int] = [:],
        progress: SysfsReadProgress = SysfsReadProgress()
    ) -> [String] {
        var list = SysfsFileList()
        for name in names { list.append(name) }
        var buffer = [UInt8](repeating: 0, count: names.count * stride)
        var lengths = names.indices.map { preset[$0] ?? 0 }
        buffer.withUnsafeMutableBytes { buffer in
            lengths.withUnsafeMutableBufferPointer { lengths in
                io.readFiles(in: dir, names: list, into: buffer, stride: stride, lengths: lengths, progress: progress)
            }
        }
        return names.indices.map { i in
            guard lengths[i] >= 0 else { return "\(lengths[i])" }
            return String(decoding: buffer[(i * stride)..<(i * stride + lengths[i])], as: UTF8.self)
                .trimmingASCIIWhitespace()
        }
    }

    static func tree() -> TemporaryDirectory {
        let tree = TemporaryDirectory()
        tree.write(["chip/temp1_max": "80000\n", "chip/temp1_crit": "100000\n", "chip/temp1_label": "Core 0\n"])
        return tree
    }

    @Test(arguments: [false, true])
    func eachFileIsReadIntoItsSlotAMissingOneGivesItsErrnoAndASkippedOneKeepsItsResult(throughTheSeamsDefault: Bool) {
        let tree = Self.tree()
        // The real C loop, and the default made of open, read and close (what test doubles get).
        let io: any SysfsIO = throughTheSeamsDefault ? SysfsFaultIO() : PosixSysfsIO()
        #expect(
            Self.read(
                io, in: tree.path("chip"), ["temp1_label", "temp1_max", "temp1_min", "temp1_crit"], preset: [3: -7])
                == ["Core 0", "80000", "\(-ENOENT)", "-7"])
        #expect(Self.read(io, in: tree.path("none"), ["temp1_max"]) == ["\(-ENOENT)"])
    }

    @Test func anAbandonedBatchOpensNothingMore() {
        let tree = Self.tree()
        let progress = SysfsReadProgress()
        progress.abandon()
        #expect(
            Self.read(
                PosixSysfsIO(), in: tree.path("chip"), ["temp1_max", "temp1_crit"], preset: [1: -7], progress: progress)
                == ["\(-ECANCELED)", "-7"])
    }

    /// The real system calls, showing which file a batch of ``SysfsIO/readFiles(in:names:into:stride:lengths:progress:)``
    /// has got to (a FIFO blocks in its open there; its read would fail with ESPIPE at once).
    final class WatchedIO: SysfsIO {
        private let real = PosixSysfsIO()
        private let batch = Mutex<(names: SysfsFileList, progress: SysfsReadProgress)?>(nil)

        /// The name of the file the running batch is at, nil between batches.
        var at: String? { batch.withLock { b in b.map { $0.names[$0.progress.index] } } }

        func open(_ path: String) -> Int32 { real.open(path) }
        func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int { real.read(fd, into: buffer) }
        func close(_ fd: Int32) { real.close(fd) }

        func readFiles(
            in directory: String, names: SysfsFileList, into buffer: UnsafeMutableRawBufferPointer, stride: Int,
            lengths: UnsafeMutableBufferPointer<Int>, progress: SysfsReadProgress
        ) {
            batch.withLock { $0 = (names, progress) }
            real.readFiles(
                in: directory, names: names, into: buffer, stride: stride, lengths: lengths, progress: progress)
            batch.withLock { $0 = nil }
        }
    }

    /// Lets an open of FIFO `path` waiting for a writer return (its read then fails).
    static func release(_ path: String) {
        let writer = open(path, O_WRONLY)
        #expect(writer >= 0)
        close(writer)
    }

    @Test func aFileThatBlocksInTheMiddleIsNamedByTheWatchReadAsBlockedLaterAndTheOthersAreRead() async throws {
        let tree = Self.tree()
        tree.fifo("chip/temp1_crit_hyst")
        let dir = tree.path("chip")
        let names = ["temp1_max", "temp1_crit_hyst", "temp1_crit"]
        let hung = HungFiles()
        let watched = WatchedIO()
        let stuckIO = GuardedSysfsIO(base: watched, hung: hung)
        let stuck = HungFileIsolationTests.inBackground { _ = Self.read(stuckIO, in: dir, names) }
        // The C loop goes no further than the FIFO's open until a writer comes.
        await eventually { watched.at == "temp1_crit_hyst" }
        let look = try #require(stuckIO.look())
        #expect(look.index == 1)
        #expect(look.path == dir + "/temp1_crit_hyst")
        #expect(stuckIO.abandon(look))
        // The next generation's batch does not open the blocked file and reads the others.
        let fresh = GuardedSysfsIO(base: PosixSysfsIO(), hung: hung)
        #expect(Self.read(fresh, in: dir, names) == ["80000", "\(GuardedSysfsIO.blockedResult)", "100000"])
        #expect(fresh.look() == nil)
        // The open returns: the given-up batch opens nothing more, and the file may be opened again.
        Self.release(dir + "/temp1_crit_hyst")
        await stuck.wait()
        #expect(!hung.contains(dir + "/temp1_crit_hyst"))
    }

    @Test func anHwmonLimitFileThatBlocksAmongTheOthersIsReadBlockedAndTheRestOfTheChipIsRead() async throws {
        let tree = TemporaryDirectory()
        tree.write([
            "hwmon0/name": "coretemp\n", "hwmon0/temp1_input": "45000\n", "hwmon0/temp1_label": "Package id 0\n",
            "hwmon0/temp1_crit": "100000\n", "hwmon0/temp2_input": "47000\n", "hwmon0/temp2_label": "Core 0\n",
            "hwmon0/temp2_max": "80000\n",
        ])
        tree.fifo("hwmon0/temp1_max")
        let watched = WatchedIO()
        let reader = SysfsLimitsTests.hwmon(tree, io: watched)
        let stuck = HungFileIsolationTests.inBackground { _ = reader.discover() }
        await eventually { watched.at == "temp1_max" }
        #expect(!reader.isolateBlockedRead(now: .zero))
        #expect(reader.isolateBlockedRead(now: .seconds(1)))
        let sensors = reader.discover()
        #expect(sensors.map(\.label) == ["Package id 0", "Core 0"])
        #expect(
            sensors.map(\.limits) == [
                SensorLimits(values: ["crit": 100], ignored: ["max": "read blocked"]),
                SensorLimits(values: ["max": 80]),
            ])
        Self.release(tree.path("hwmon0/temp1_max"))
        await stuck.wait()
    }

    @Test func aLabelLongerThanItsSlotInTheChipsBatchIsReadWhole() {
        let tree = TemporaryDirectory()
        let long = String(repeating: "Package id 0 ", count: 20).trimmingASCIIWhitespace()
        tree.write(["hwmon0/name": "coretemp\n", "hwmon0/temp1_input": "45000\n", "hwmon0/temp1_label": long + "\n"])
        #expect(long.utf8.count > SysfsFileBatch.stride)
        #expect(SysfsLimitsTests.hwmon(tree).discover().map(\.label) == [long])
    }
}
