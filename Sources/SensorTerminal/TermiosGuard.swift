import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Takes a terminal into a full-screen view's mode and gives it back exactly as it was.
///
/// ``enter()`` keeps the terminal's termios, turns off echo, line editing and the signal
/// keys (Ctrl-C arrives as a key, so the view ends itself and restores first), and switches
/// to the alternate screen with the cursor hidden and autowrap off (a write to the last
/// column must not scroll the screen). ``restore()`` undoes all of it, once, whichever way
/// out calls it first (a key, a signal, an error): the shell gets back its screen, its cursor
/// and the termios it had, as `stty -a` shows them.
public final class TermiosGuard: Sendable {
    /// What `enter()` writes after changing the termios.
    public static let enterSequence = Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l".utf8)
    /// What `restore()` writes before putting the termios back.
    public static let restoreSequence = Array("\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l".utf8)

    private struct State: @unchecked Sendable {
        // termios is a plain C struct of integers; it is only touched under the lock.
        var saved: termios?
        var entered = false
    }

    private let input: Int32
    private let terminal: any Terminal
    private let state = Mutex(State())

    /// A guard for the terminal on `input` (whose termios it changes) drawn through `terminal`.
    public init(input: Int32 = 0, terminal: any Terminal) {
        self.input = input
        self.terminal = terminal
    }

    /// Errors of ``enter()``.
    public struct NotATerminal: Error, CustomStringConvertible {
        /// errno of `tcgetattr`.
        public var errno: Int32
        /// For a person.
        public var description: String { "standard input is not a terminal" }
    }

    /// Saves the termios, makes the terminal raw, enters the alternate screen.
    ///
    /// - Throws: ``NotATerminal`` when `input` has no termios (nothing is changed then).
    public func enter() throws(NotATerminal) {
        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { throw NotATerminal(errno: errno) }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        state.withLock {
            $0.saved = saved
            $0.entered = true
        }
        _ = tcsetattr(input, TCSADRAIN, &raw)
        terminal.write(Self.enterSequence)
    }

    /// Puts the terminal back as ``enter()`` found it; only the first call does anything.
    public func restore() {
        let saved: termios? = state.withLock { s in
            guard s.entered else { return nil }
            s.entered = false
            return s.saved
        }
        guard var saved else { return }
        terminal.write(Self.restoreSequence)
        _ = tcsetattr(input, TCSADRAIN, &saved)
    }

    /// Whether the view's mode is on (entered and not yet restored).
    public var isEntered: Bool { state.withLock { $0.entered } }
}
