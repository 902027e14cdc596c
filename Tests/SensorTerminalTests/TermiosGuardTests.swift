import SensorTerminal
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct TermiosGuardTests {
    /// A pseudo-terminal pair: the test's own tty, whatever the test runner's stdin is.
    /// A pseudo-terminal pair: the test's own tty, whatever the test runner's stdin is.
    /// (posix_openpt and friends are not in Swift's Glibc module: the ioctls they make.)
    private func pty() throws -> (main: Int32, secondary: Int32) {
        let main = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(main >= 0)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        // _IOW('T', 0x31, int), _IOR('T', 0x30, unsigned)
        let tiocsptlck: UInt = 0x4004_5431, tiocgptn: UInt = 0x8004_5430
        try #require(ioctl(main, tiocsptlck, &unlock) == 0 && ioctl(main, tiocgptn, &number) == 0)
        let secondary = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        try #require(secondary >= 0)
        return (main, secondary)
    }

    private func attributes(_ fd: Int32) -> termios {
        var t = termios()
        _ = tcgetattr(fd, &t)
        return t
    }

    private func same(_ a: termios, _ b: termios) -> Bool {
        var a = a, b = b
        return memcmp(&a, &b, MemoryLayout<termios>.size) == 0
    }

    @Test func enterMakesTheTerminalRawAndRestorePutsBackWhatWasThere() throws {
        let (main, secondary) = try pty()
        defer { close(main); close(secondary) }
        let before = attributes(secondary)
        let screen = MemoryTerminal(size: nil)
        let guardian = TermiosGuard(input: secondary, terminal: screen)
        try guardian.enter()
        let raw = attributes(secondary)
        #expect(raw.c_lflag & tcflag_t(ICANON | ECHO | ISIG) == 0)
        #expect(screen.text == String(decoding: TermiosGuard.enterSequence, as: UTF8.self))
        guardian.restore()
        #expect(same(attributes(secondary), before))
        #expect(screen.text.hasSuffix("\u{1B}[?25h\u{1B}[?1049l"))
        #expect(!guardian.isEntered)
    }

    @Test func onlyTheFirstRestoreDoesAnything() throws {
        let (main, secondary) = try pty()
        defer { close(main); close(secondary) }
        let screen = MemoryTerminal(size: nil)
        let guardian = TermiosGuard(input: secondary, terminal: screen)
        try guardian.enter()
        guardian.restore()
        guardian.restore()
        #expect(screen.writes.count == 2)
    }

    @Test func notATerminalIsAnErrorAndChangesNothing() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let screen = MemoryTerminal(size: nil)
        let guardian = TermiosGuard(input: fds[0], terminal: screen)
        #expect(throws: TermiosGuard.NotATerminal.self) { try guardian.enter() }
        guardian.restore()
        #expect(screen.writes.isEmpty)
    }
}
