#if canImport(Glibc)
import Glibc
#endif
@testable import SensorCLI
import SensorCore
import Testing

@Suite struct RecordCommandTests {
    @Test(arguments: [
        [] as [String],
        ["--duration", "10s"],
        ["--output", "r.json", "--duration", "soon"],
        ["--output", "r.json", "--duration", "0s"],
        ["--output", "r.json", "--interval", "-1s"],
        ["--output", "r.json", "--json"],
        ["--output"],
    ])
    @MainActor func badCommandLinesAreUsageErrors(args: [String]) async {
        #expect(await RecordCommand.run(args) == .usage)
    }

    @Test @MainActor func aBrokenConfigurationIsAConfigurationError() async {
        #expect(await RecordCommand.run(["--config", "/nonexistent/sensorwatch.json5", "--output", "/tmp/r.json"]) == .config)
    }

    @Test @MainActor func helpExitsZero() async {
        #expect(await RecordCommand.run(["--help"]) == .success)
    }

    @Test func theProgressLineCountsSensorsSamplesAndTime() {
        #expect(RecordCommand.progressLine(Recorder.Progress(sensors: 9, samples: 3600, elapsed: .seconds(400)), done: false)
            == "recording 9 sensors: 3600 samples, 6m40s")
        #expect(RecordCommand.progressLine(Recorder.Progress(sensors: 1, samples: 1, elapsed: .zero), done: true)
            == "recorded 1 sensor: 1 sample, 0s")
    }

    @Test func replacingAFileLeavesTheNewOneAndNoTemporaryFile() throws {
        var template = Array("/tmp/sensorwatch-record-XXXXXX".utf8CString)
        let dir = String(cString: template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!)! })
        defer { rmdir(dir) }
        let path = dir + "/r.json"
        defer { unlink(path) }
        #expect(TextFileWriter.write("old, and longer than the new text\n", to: path))
        #expect(TextFileWriter.replace(path, with: "{}\n"))
        #expect(entries(dir) == ["r.json"])
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = read(fd, &buffer, 64)
        #expect(String(decoding: buffer[..<max(0, n)], as: UTF8.self) == "{}\n")
        var info = stat()
        stat(path, &info)
        #expect(info.st_mode & 0o777 == 0o644)
    }

    @Test func replacingInAMissingDirectoryFailsWithItsErrno() {
        #expect(!TextFileWriter.canCreate("/nonexistent/sensorwatch/r.json"))
        #expect(!TextFileWriter.replace("/nonexistent/sensorwatch/r.json", with: "{}"))
        #expect(errno == ENOENT)
        #expect(TextFileWriter.canCreate("/tmp/r.json"))
        #expect(!TextFileWriter.canCreate("/tmp"))
        #expect(errno == EISDIR)
    }

    private func entries(_ dir: String) -> [String] {
        guard let d = opendir(dir) else { return [] }
        defer { closedir(d) }
        var names: [String] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
