#if canImport(Glibc)
import Glibc
#endif
@testable import SensorCLI
import SensorRuntime
import SensorSimulation
import SensorTestKit
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
        #expect(await CLI.main(["record"] + args) == .usage)
    }

    @Test @MainActor func aBrokenConfigurationIsAConfigurationError() async {
        #expect(
            await CLI.main(["record", "--config", "/nonexistent/sensorwatch.json5", "--output", "/tmp/r.json"])
                == .config)
    }

    @Test @MainActor func helpExitsZero() async {
        #expect(await CLI.main(["record", "--help"]) == .success)
    }

    @Test func theProgressLineCountsSensorsSamplesAndTime() {
        #expect(
            RecordCommand.progressLine(
                Recorder.Progress(sensors: 9, samples: 3600, elapsed: .seconds(400)), done: false)
                == "recording 9 sensors: 3600 samples, 6m40s")
        #expect(
            RecordCommand.progressLine(Recorder.Progress(sensors: 1, samples: 1, elapsed: .zero), done: true)
                == "recorded 1 sensor: 1 sample, 0s")
    }

    @Test func aRecordingReplacesTheFileDurablyAndLeavesNoTemporaryFile() throws {
        let dir = TemporaryDirectory()
        let path = dir.write("r.json", "old, and longer than the new text\n")
        try AtomicFileWriter(path: path, options: .durable).write("{}\n")
        #expect(dir.names() == ["r.json"])
        #expect(TemporaryDirectory.readFile(path) == "{}\n")
        var info = stat()
        stat(path, &info)
        #expect(info.st_mode & 0o777 == 0o644)
    }
}
