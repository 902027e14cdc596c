#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import SensorCore

/// A private directory under /tmp for one test's files, removed when the value goes away.
final class TemporaryFiles {
    /// The directory, absolute, without a trailing slash.
    let directory: String
    private var written: [String] = []
    private var directories: [String] = []

    init() {
        var template = Array("/tmp/sensorwatch-config-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        directory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
        for file in written.reversed() { unlink(file) }
        for dir in directories.reversed() { rmdir(dir) }
        rmdir(directory)
    }

    /// The absolute path of `name` inside the directory.
    func path(_ name: String) -> String { directory + "/" + name }

    /// Writes `text` to `name` (creating parent directories) and returns its absolute path.
    @discardableResult
    func write(_ name: String, _ text: String) -> String {
        var parent = directory
        for part in name.split(separator: "/").dropLast() {
            parent += "/" + part
            if mkdir(parent, 0o755) == 0 { directories.append(parent) }
        }
        let full = path(name)
        let fd = open(full, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(fd >= 0, "cannot create \(full)")
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        written.append(full)
        return full
    }

    /// Error lines as `sensorwatch check` prints them, with this directory's prefix removed.
    func lines(_ errors: ConfigErrors) -> [String] {
        errors.errors.map { $0.description.replacingOccurrences(of: directory + "/", with: "") }
    }

    /// Loads configuration `name` and returns its error lines (empty when it loads).
    func configErrors(_ name: String) -> [String] {
        errorLines { () throws(ConfigErrors) in _ = try ConfigLoader.load(path: path(name)) }
    }

    /// Loads scenario `name` and returns its error lines (empty when it loads).
    func scenarioErrors(_ name: String) -> [String] {
        errorLines { () throws(ConfigErrors) in _ = try ScenarioLoader.load(path: path(name)) }
    }

    /// Writes `text` as `c.json5` in a fresh directory, loads it as a configuration and
    /// returns its error lines.
    static func configErrors(of text: String) -> [String] {
        let files = TemporaryFiles()
        files.write("c.json5", text)
        return files.configErrors("c.json5")
    }

    /// Writes `text` as `s.json5` in a fresh directory, loads it as a scenario and returns
    /// its error lines.
    static func scenarioErrors(of text: String) -> [String] {
        let files = TemporaryFiles()
        files.write("s.json5", text)
        return files.scenarioErrors("s.json5")
    }

    private func errorLines(_ load: () throws(ConfigErrors) -> Void) -> [String] {
        do {
            try load()
            return []
        } catch {
            return lines(error)
        }
    }
}

extension String {
    /// Every occurrence of `target` replaced (FoundationEssentials-free, for test output).
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}

struct ConfigTemporaryFilesTests {
    @Test func removesItsDirectoryWhenReleased() {
        var files: TemporaryFiles? = TemporaryFiles()
        let directory = files!.directory
        files!.write("a/b/c.txt", "x")
        files = nil
        #expect(access(directory, F_OK) != 0)
    }
}
