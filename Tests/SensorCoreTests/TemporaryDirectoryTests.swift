#if canImport(Glibc)
import Glibc
#endif
import SensorTestKit
import Testing

struct TemporaryDirectoryTests {
    @Test func removesItsDirectoryWhenReleased() {
        var files: TemporaryDirectory? = TemporaryDirectory()
        let directory = files!.root
        files!.write("a/b/c.txt", "x")
        files = nil
        #expect(access(directory, F_OK) != 0)
    }
}
