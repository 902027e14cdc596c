#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import SensorCore
import SensorTestKit

/// How the metrics file is replaced: always whole, the previous file's storage reused
/// only when nobody reads it any more.
struct MetricsTextfileTests {
    func inode(_ path: String) -> ino_t {
        var st = stat()
        return stat(path, &st) == 0 ? st.st_ino : 0
    }

    func replace(_ dir: TemporaryDirectory, _ text: String) -> String? {
        Array(text.utf8).withUnsafeBufferPointer {
            MetricsTextfile.replace(dir.path("m.prom"), via: dir.path(".m.prom.tmp"), with: $0)
        }
    }

    /// The first write renames; later ones exchange, so the temporary name keeps the file
    /// just replaced, and the write after that overwrites it (same inode), cut to length.
    @Test func reusesTheFileItReplacedTwoWritesAgo() {
        let dir = TemporaryDirectory()
        #expect(replace(dir, "first, long text\n") == nil)
        #expect(dir.names() == ["m.prom"])
        let first = inode(dir.path("m.prom"))
        #expect(replace(dir, "second\n") == nil)
        #expect(dir.names() == [".m.prom.tmp", "m.prom"])
        #expect(inode(dir.path(".m.prom.tmp")) == first)
        #expect(TemporaryDirectory.readFile(dir.path(".m.prom.tmp")) == "first, long text\n")
        #expect(replace(dir, "third\n") == nil)
        #expect(inode(dir.path("m.prom")) == first)
        #expect(TemporaryDirectory.readFile(dir.path("m.prom")) == "third\n")
        #expect(TemporaryDirectory.readFile(dir.path(".m.prom.tmp")) == "second\n")
    }

    /// A reader that opened the file before it was replaced reads it whole, however long it
    /// takes: that file is not overwritten while open; a new one is made instead.
    @Test func neverOverwritesAFileSomeoneStillReads() {
        let dir = TemporaryDirectory()
        #expect(replace(dir, "one\n") == nil)
        let reader = open(dir.path("m.prom"), O_RDONLY)
        #expect(reader >= 0)
        defer { close(reader) }
        let held = inode(dir.path("m.prom"))
        #expect(replace(dir, "two\n") == nil)
        #expect(replace(dir, "three, longer\n") == nil)
        #expect(replace(dir, "four\n") == nil)
        #expect(inode(dir.path("m.prom")) != held)
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = pread(reader, &buffer, buffer.count, 0)
        #expect(String(decoding: buffer.prefix(max(n, 0)), as: UTF8.self) == "one\n")
        #expect(TemporaryDirectory.readFile(dir.path("m.prom")) == "four\n")
    }

    /// Whatever the temporary name holds is not written through: a symbolic link there is
    /// removed, not followed.
    @Test func aSymlinkAtTheTemporaryNameIsNotFollowed() {
        let dir = TemporaryDirectory()
        let target = dir.write("elsewhere", "keep\n")
        symlink(target, dir.path(".m.prom.tmp"))
        #expect(replace(dir, "x\n") == nil)
        #expect(TemporaryDirectory.readFile(target) == "keep\n")
        #expect(TemporaryDirectory.readFile(dir.path("m.prom")) == "x\n")
        #expect(dir.names() == ["elsewhere", "m.prom"])
    }
}
