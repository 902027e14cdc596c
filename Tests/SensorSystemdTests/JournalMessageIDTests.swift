#if canImport(Glibc)
import Glibc
#endif
import SensorCore
import Testing
@testable import SensorSystemd

struct JournalMessageIDTests {
    @Test func idsAreDistinct128BitLowercaseHex() {
        let ids = JournalMessageID.allCases.map(\.rawValue)
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.utf8.count == 32)
            #expect(id.allSatisfy { "0123456789abcdef".contains($0) })
        }
    }

    @Test(arguments: [EventKind.firing, .resolved, .repeat])
    func eventKindMapsToItsIdAndBack(kind: EventKind) {
        #expect(JournalMessageID(kind).eventKind == kind)
    }

    /// The catalog is what `journalctl -x` shows: every id in code needs its entry, and an
    /// entry for an id the code never logs would be dead text.
    @Test func catalogExplainsExactlyTheIdsInCode() throws {
        let root = String(#filePath.split(separator: "/").dropLast(3).joined(separator: "/"))
        let catalog = try #require(Self.read("/" + root + "/systemd/sensorwatch.catalog"))
        let catalogIDs = catalog.split(separator: "\n").filter { $0.hasPrefix("-- ") }.map { String($0.dropFirst(3)) }
        #expect(catalogIDs.sorted() == JournalMessageID.allCases.map(\.rawValue).sorted())
    }

    static func read(_ path: String) -> String? {
        guard let f = fopen(path, "r") else { return nil }
        defer { fclose(f) }
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buf, 1, buf.count, f)
            if n == 0 { break }
            out += buf[..<n]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
