#if canImport(Glibc)
import Glibc
#endif
@testable import SensorRuntime
@testable import SensorSysfs
import SensorTestKit
import Testing

/// Directory listing for discovery.
struct SysfsTreeTests {
    /// A large directory (a thermal class of a thousand zones), names of every length up to
    /// the longest a file system allows: each comes back whole, sorted. Names are read
    /// where `readdir` left them, up to their NUL (a copy of the whole 256-byte `d_name`
    /// read past short entries and crashed the daemon at its first rediscovery).
    @Test func listsLargeDirectoriesWithNamesOfEveryLength() {
        let dir = TemporaryDirectory()
        var expected: [String] = []
        for i in 0..<1500 {
            let name = "z\(i)" + String(repeating: "x", count: i % 250)
            expected.append(name)
            close(open(dir.path(name), O_CREAT | O_WRONLY, 0o644))
        }
        expected.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        for _ in 0..<5 {
            #expect(DirectoryListing.entries(dir.path("")) == expected)
        }
        #expect(DirectoryListing.entries(dir.path("missing")).isEmpty)
    }
}
