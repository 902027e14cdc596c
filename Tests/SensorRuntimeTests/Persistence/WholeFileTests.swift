#if canImport(Glibc)
import Glibc
#endif
@testable import SensorRuntime
import SensorTestKit
import Testing

/// The one whole-file read: every byte to the end, across many reads, and a failed read as
/// its errno.
struct WholeFileTests {
    @Test func aFileLargerThanOneReadIsReadWhole() throws {
        let dir = TemporaryDirectory()
        let bytes = (0..<(200 * 1024 + 7)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let path = dir.write("big.json", bytes: bytes)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        #expect(fd >= 0)
        defer { close(fd) }
        #expect(try WholeFile.read(fd) == bytes)
    }

    @Test func aFailedReadGivesItsErrno() {
        let dir = TemporaryDirectory()
        let fd = open(dir.root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        #expect(fd >= 0)
        defer { close(fd) }
        #expect(throws: SystemError(.read, errno: EISDIR)) { try WholeFile.read(fd) }
    }
}
