#if canImport(Glibc)
import Glibc
#endif
@testable import SensorRuntime
import SensorTestKit
import Testing

/// Files replaced whole, whatever the options: reusing the replaced file (the metrics
/// file's way) only when nobody reads it any more, the mode, durability, temporary names.
struct AtomicFileWriterTests {
    func inode(_ path: String) -> ino_t {
        var st = stat()
        return stat(path, &st) == 0 ? st.st_ino : 0
    }

    func mode(_ path: String) -> mode_t {
        var st = stat()
        return stat(path, &st) == 0 ? st.st_mode & 0o7777 : 0
    }

    /// The metrics file's options: a hidden named temporary, the replaced file reused.
    func replace(_ dir: TemporaryDirectory, _ text: String) -> String? {
        let writer = AtomicFileWriter(
            path: dir.path("m.prom"),
            options: AtomicFileWriter.Options(temporary: .named(dir.path(".m.prom.tmp")), reusesReplaced: true))
        do {
            try writer.write(text)
            return nil
        } catch {
            return error.description
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

    /// A hard link planted at the temporary name (another file's second name, in a
    /// directory others can write to) is not written through: the linked file keeps its
    /// text, the write makes a file of its own.
    @Test func aHardLinkAtTheTemporaryNameIsNotWrittenThrough() {
        let dir = TemporaryDirectory()
        let target = dir.write("elsewhere", "keep\n")
        #expect(link(target, dir.path(".m.prom.tmp")) == 0)
        #expect(replace(dir, "x\n") == nil)
        #expect(TemporaryDirectory.readFile(target) == "keep\n")
        #expect(TemporaryDirectory.readFile(dir.path("m.prom")) == "x\n")
        #expect(replace(dir, "y\n") == nil)
        #expect(replace(dir, "z\n") == nil)
        #expect(TemporaryDirectory.readFile(target) == "keep\n")
        #expect(TemporaryDirectory.readFile(dir.path("m.prom")) == "z\n")
    }

    /// The file replaced two writes ago, given a second name since, is not reused either:
    /// the check is made at every write, not once.
    @Test func aHardLinkMadeToTheKeptFileLaterIsNotWrittenThrough() {
        let dir = TemporaryDirectory()
        #expect(replace(dir, "one\n") == nil)
        #expect(replace(dir, "two\n") == nil)
        #expect(link(dir.path(".m.prom.tmp"), dir.path("planted")) == 0)
        #expect(replace(dir, "three\n") == nil)
        #expect(TemporaryDirectory.readFile(dir.path("planted")) == "one\n")
        #expect(TemporaryDirectory.readFile(dir.path("m.prom")) == "three\n")
    }

    /// Another user's file at the temporary name (one link, a plain file) is not written
    /// through: it is not ours to overwrite, and our file is not theirs (a reused file
    /// would keep its owner, who could then rewrite what we publish). Needs root to give
    /// the file away.
    @Test(.enabled(if: geteuid() == 0)) func anotherUsersFileAtTheTemporaryNameIsNotWrittenThrough() {
        let dir = TemporaryDirectory()
        let planted = dir.write(".m.prom.tmp", "theirs\n")
        #expect(chown(planted, 65534, 65534) == 0)
        #expect(replace(dir, "x\n") == nil)
        var info = stat()
        #expect(stat(dir.path("m.prom"), &info) == 0)
        #expect(info.st_uid == geteuid())
        #expect(TemporaryDirectory.readFile(dir.path("m.prom")) == "x\n")
    }

    /// A FIFO planted at the temporary name neither hangs the write (an open for writing
    /// waits for a reader) nor receives the text: it is replaced by a new file.
    @Test func aFIFOAtTheTemporaryNameNeitherHangsNorReceivesTheText() {
        let dir = TemporaryDirectory()
        #expect(mkfifo(dir.path(".m.prom.tmp"), 0o600) == 0)
        #expect(replace(dir, "x\n") == nil)
        #expect(TemporaryDirectory.readFile(dir.path("m.prom")) == "x\n")
        var info = stat()
        #expect(lstat(dir.path(".m.prom.tmp"), &info) != 0 || info.st_mode & S_IFMT == S_IFREG)
    }

    /// A FIFO with a reader waiting on it (an open for writing succeeds at once) is not
    /// written to: the reader gets end of file, never the text.
    @Test func aFIFOWithAReaderAtTheTemporaryNameGetsNothing() {
        let dir = TemporaryDirectory()
        #expect(mkfifo(dir.path(".m.prom.tmp"), 0o600) == 0)
        let reader = open(dir.path(".m.prom.tmp"), O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        #expect(replace(dir, "x\n") == nil)
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(read(reader, &buffer, buffer.count) <= 0)
        #expect(TemporaryDirectory.readFile(dir.path("m.prom")) == "x\n")
    }

    @Test func theDefaultsReplaceWithMode0644WhateverTheUmaskAndLeaveNoTemporary() throws {
        let dir = TemporaryDirectory()
        let old = umask(0o077)
        defer { umask(old) }
        let writer = AtomicFileWriter(path: dir.path("plot.svg"))
        try writer.write("<svg/>\n")
        try writer.write("<svg></svg>\n")
        #expect(TemporaryDirectory.readFile(dir.path("plot.svg")) == "<svg></svg>\n")
        #expect(mode(dir.path("plot.svg")) == 0o644)
        #expect(dir.names() == ["plot.svg"])
    }

    @Test func umaskedModeLeavesTheUmaskItsSay() throws {
        let dir = TemporaryDirectory()
        let old = umask(0o077)
        defer { umask(old) }
        try AtomicFileWriter(path: dir.path("state.json"), options: AtomicFileWriter.Options(mode: .umasked(0o644)))
            .write("{}\n")
        #expect(mode(dir.path("state.json")) == 0o600)
    }

    @Test func durableWithANamedTemporaryCreatesItsDirectoryAndLeavesOnlyTheFile() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("state/state.json")
        let writer = AtomicFileWriter(
            path: path,
            options: AtomicFileWriter.Options(temporary: .named(path + ".tmp"), durable: true, createsDirectory: true))
        try writer.write([0x7B, 0x7D, 0x0A])
        #expect(TemporaryDirectory.readFile(path) == "{}\n")
        #expect(dir.names() == ["state"])
        #expect(dir.names("state") == ["state.json"])
    }

    /// A failed write names the step and the file in words, keeps the old file and leaves
    /// no temporary file behind.
    @Test func aFailureKeepsTheOldFileAndSaysWhatFailedInWords() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("r.json")
        try AtomicFileWriter(path: path).write("old\n")
        dir.mkdir("r.json.tmp-dir")
        // The named temporary is a directory: it cannot be removed as a file, so open fails.
        let writer = AtomicFileWriter(
            path: path, options: AtomicFileWriter.Options(temporary: .named(dir.path("r.json.tmp-dir"))))
        #expect(throws: SystemError(.open, path: dir.path("r.json.tmp-dir"), errno: EEXIST)) {
            try writer.write("new\n")
        }
        #expect(TemporaryDirectory.readFile(path) == "old\n")
        let missing = AtomicFileWriter(path: dir.path("none/r.json"), options: .durable)
        do {
            try missing.write("x")
            Issue.record("wrote into a missing directory")
        } catch {
            #expect(error.reason == "No such file or directory")
            #expect(error.description.hasPrefix("open \(dir.path("none"))/.r.json.tmp-"))
            #expect(error.description.hasSuffix(": No such file or directory"))
        }
    }

    @Test func uniqueTemporariesOfTwoWritersNeverCollide() throws {
        let dir = TemporaryDirectory()
        for n in 0..<20 { try AtomicFileWriter(path: dir.path("r.json")).write("\(n)\n") }
        #expect(TemporaryDirectory.readFile(dir.path("r.json")) == "19\n")
        #expect(dir.names() == ["r.json"])
    }

    @Test func removeTakesTheFileAndItsNamedTemporary() throws {
        let dir = TemporaryDirectory()
        #expect(replace(dir, "a\n") == nil)
        #expect(replace(dir, "b\n") == nil)
        #expect(dir.names() == [".m.prom.tmp", "m.prom"])
        AtomicFileWriter(
            path: dir.path("m.prom"), options: AtomicFileWriter.Options(temporary: .named(dir.path(".m.prom.tmp")))
        )
        .remove()
        #expect(dir.names() == [])
    }

    @Test func canCreateAsksTheDirectoryAndRefusesADirectory() {
        #expect(!AtomicFileWriter.canCreate("/nonexistent/sensorwatch/r.json"))
        #expect(AtomicFileWriter.canCreate("/tmp/r.json"))
        #expect(!AtomicFileWriter.canCreate("/tmp"))
        #expect(errno == EISDIR)
    }
}
