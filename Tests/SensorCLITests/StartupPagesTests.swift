import Testing

@testable import SensorCLI

#if canImport(Glibc)
import Glibc
#endif

@Suite struct StartupPagesTests {
    /// RssFile of this process, in KiB.
    private func residentFileKiB() -> Int {
        guard let file = fopen("/proc/self/status", "r") else { return -1 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix("RssFile:") else { continue }
            return Int(text.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? -1
        }
        return -1
    }

    @Test func droppingTheReadOnlyFilePagesLeavesTheProgramWholeAndLessResident() {
        let words = ["thermal", "hwmon", "iio"].map { $0.uppercased() }
        let before = residentFileKiB()
        #expect(StartupPages.releaseShared() > 0)
        #expect(residentFileKiB() < before)
        // Code, constants and relocated data still read as before (RELRO was left alone).
        #expect(["thermal", "hwmon", "iio"].map { $0.uppercased() } == words)
        #expect(String(describing: StartupPagesTests.self) == "StartupPagesTests")
    }
}
