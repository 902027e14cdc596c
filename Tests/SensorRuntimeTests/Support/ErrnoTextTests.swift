#if canImport(Glibc)
import Glibc
#endif
import SensorRuntime
import Testing

/// Errors as people read them: words, never `errno 24`.
struct ErrnoTextTests {
    @Test(arguments: [
        (EMFILE, "Too many open files"),
        (ENFILE, "Too many open files in system"),
        (EIO, "Input/output error"),
        (ENOENT, "No such file or directory"),
        (EACCES, "Permission denied"),
        (ENOSPC, "No space left on device"),
        (EROFS, "Read-only file system"),
    ])
    func wordsAreGlibcsEnglishDescription(code: Int32, words: String) {
        #expect(ErrnoText.words(code) == words)
    }

    @Test func namedPutsTheSymbolBeforeTheWords() {
        #expect(ErrnoText.named(EMFILE) == "EMFILE (Too many open files)")
        #expect(ErrnoText.named(ESHUTDOWN) == "ESHUTDOWN (Cannot send after transport endpoint shutdown)")
    }

    @Test func aCodeGlibcDoesNotKnowIsSaidSoWithoutAName() {
        #expect(ErrnoText.words(4242) == "unknown error 4242")
        #expect(ErrnoText.named(4242) == "unknown error 4242")
    }
}
