#if canImport(Glibc)
import Glibc
#endif
import SensorCore
import SensorRuntime
import Testing

/// The open-file limit as people read it, and which faults are a shortage of descriptors.
struct OpenFileLimitTests {
    @Test func onlyTheShortageOfDescriptorsCounts() {
        #expect(OpenFileLimit.isShortage(.system(errno: EMFILE)))
        #expect(OpenFileLimit.isShortage(.system(errno: ENFILE)))
        #expect(!OpenFileLimit.isShortage(.system(errno: EIO)))
        #expect(!OpenFileLimit.isShortage("not a number: \"x\""))
        // By the code, not the words: a reason that only reads like the shortage is none.
        #expect(!OpenFileLimit.isShortage(.other(ErrnoText.named(EMFILE))))
    }

    @Test func theLimitIsSaidAsAPersonReadsIt() {
        #expect(OpenFileLimit(soft: 256, hard: 256).description == "256 (also the hard limit)")
        #expect(OpenFileLimit(soft: 1024, hard: 524288).description == "1024 (hard limit 524288)")
    }
}
