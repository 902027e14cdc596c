#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import SensorSystemd

struct IovecPackingTests {
    @Test(
        arguments: [
            [],
            [""],
            ["MESSAGE=hello"],
            ["MESSAGE=two\nlines", "", "SENSOR_UNIT=°C", "PRIORITY=4"],
        ] as [[String]])
    func eachIovecCoversExactlyItsStringsBytes(strings: [String]) {
        let seen: [[UInt8]] = IovecPacking.withIovecs(strings) { iov in
            iov.map { v in
                v.iov_len == 0 ? [] : Array(UnsafeRawBufferPointer(start: v.iov_base, count: v.iov_len))
            }
        }
        #expect(seen == strings.map { Array($0.utf8) })
    }
}
