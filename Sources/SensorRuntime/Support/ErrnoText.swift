import CLinux

/// An errno as people read it: `Too many open files`, not `errno 24`.
///
/// The one way the project turns an errno into text, for fault reasons, file errors and log
/// entries alike. glibc's own table (`strerrordesc_np`), not `strerror`: thread-safe (poll
/// threads call it) and the same words in every locale, so journal entries and golden
/// texts do not change with `LANG`.
public enum ErrnoText {
    /// The words: `Too many open files`; `unknown error 4242` for a code glibc does not know.
    public static func words(_ code: Int32) -> String {
        guard let text = sw_errno_words(code) else { return "unknown error \(code)" }
        return String(cString: text)
    }

    /// The name and the words, for fault reasons whose reader may want to search for the
    /// name: `EMFILE (Too many open files)`; just the words when the code has no name.
    public static func named(_ code: Int32) -> String {
        guard let name = sw_errno_name(code) else { return words(code) }
        return "\(String(cString: name)) (\(words(code)))"
    }
}
