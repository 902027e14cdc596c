import Testing

@testable import SensorCLI

#if canImport(Glibc)
import Glibc
#endif

@Suite struct StartupPagesTests {
    /// The length of this program's executable mappings (its text), from /proc/self/maps.
    private func ownTextBytes() -> Int {
        var target = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &target, target.count - 1)
        guard n > 0, let maps = fopen("/proc/self/maps", "r") else { return -1 }
        defer { fclose(maps) }
        let exe = String(decoding: target[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var total = 0
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), maps) != nil {
            let text = String(
                decoding: line.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let fields = text.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "r-xp", fields[5] == exe[...] else { continue }
            let range = fields[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
            if range.count == 2 { total += Int(range[1] - range[0]) }
        }
        return total
    }

    @Test func theProgramsTextIsDroppedAndTheProgramStaysWhole() {
        let words = ["thermal", "hwmon", "iio"].map { $0.uppercased() }
        let text = ownTextBytes()
        #expect(text > 0)
        // Other tests run beside this one and fault pages back in: the bytes dropped, not
        // the RSS after, are what is certain.
        #expect(StartupPages.releaseShared() >= text)
        // Code, constants and relocated data still read as before (RELRO was left alone).
        #expect(["thermal", "hwmon", "iio"].map { $0.uppercased() } == words)
        #expect(String(describing: StartupPagesTests.self) == "StartupPagesTests")
    }
}
