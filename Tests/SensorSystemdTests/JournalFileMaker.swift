#if canImport(Glibc)
import Glibc
#endif
import SensorTestKit

/// Writes real journal files for reader tests: entries in journal export format, turned into
/// a `.journal` file by `systemd-journal-remote` (as it does with what journal-upload sends),
/// in the order given: so a test builds files whose order is not time order, as a
/// journal-remote file receiving from several hosts is.
struct JournalFileMaker {
    /// Debian's path of the converter (package `systemd-journal-remote`; `make deps`).
    static let remote = "/lib/systemd/systemd-journal-remote"
    static var available: Bool { access(remote, X_OK) == 0 }
    /// Whether the tests that need it run: where it is installed, and always in CI (where a
    /// missing converter must fail, not skip).
    static var testsRun: Bool { available || getenv("CI").map { String(cString: $0) } == "true" }

    /// One entry: its realtime timestamp, `_HOSTNAME` (nil: none) and further `FIELD=value`s.
    struct Entry {
        var usec: UInt64
        var host: String?
        var fields: [String]
    }

    /// A fresh directory under /tmp that holds the test's journal directories, removed when
    /// the last copy of the maker goes away.
    private let directory = TemporaryDirectory(prefix: "sensorwatch-journal")
    var root: String { directory.root }

    /// Writes `entries`, in this order, as `root/directory/file.journal`; returns the
    /// directory's path.
    @discardableResult
    func write(_ entries: [Entry], directory: String, file: String = "remote.journal") throws -> String {
        let dir = root + "/" + directory
        self.directory.mkdir(directory)
        var export = ""
        for (i, e) in entries.enumerated() {
            export += "__REALTIME_TIMESTAMP=\(e.usec)\n__MONOTONIC_TIMESTAMP=\(i + 1)\n"
            export += "_BOOT_ID=0123456789abcdef0123456789abcdef\n"
            if let host = e.host { export += "_HOSTNAME=\(host)\n" }
            export += e.fields.map { $0 + "\n" }.joined() + "\n"
        }
        let input = self.directory.write(directory + ".export", export)
        defer { unlink(input) }
        try Self.run([Self.remote, "--output=\(dir)/\(file)", input])
        return dir
    }

    struct ToolFailed: Error, CustomStringConvertible {
        var command: [String]
        var status: Int32
        var description: String {
            status < 0
                ? "cannot run \(command[0]) (make deps installs systemd-journal-remote)"
                : "\(command.joined(separator: " ")) exited with \(status)"
        }
    }

    private static func run(_ command: [String]) throws {
        var pid: pid_t = 0
        var argv = command.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // journal-remote reports what it wrote on stderr; keep test output clean.
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        guard posix_spawn(&pid, command[0], &actions, nil, &argv, environ) == 0 else {
            throw ToolFailed(command: command, status: -1)
        }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        guard status == 0 else { throw ToolFailed(command: command, status: status) }
    }
}
