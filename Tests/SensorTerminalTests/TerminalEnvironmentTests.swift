import SensorTerminal
import Testing

@Suite struct TerminalEnvironmentTests {
    private func env(_ vars: [String: String]) -> TerminalEnvironment { TerminalEnvironment { vars[$0] } }
    private let minimum = TerminalSize(rows: 24, columns: 80)

    @Test func noColorTurnsColourOffAndSoDoesADumbTerminal() {
        #expect(env(["TERM": "xterm"]).colour)
        #expect(!env(["TERM": "xterm", "NO_COLOR": "1"]).colour)
        #expect(env(["TERM": "xterm", "NO_COLOR": ""]).colour)
        #expect(!env(["TERM": "dumb"]).colour)
    }

    @Test func theLocaleSaysWhetherBlocksCanBeDrawn() {
        #expect(env(["LANG": "en_US.UTF-8"]).utf8)
        #expect(env(["LC_ALL": "C.utf8", "LANG": "C"]).utf8)
        #expect(!env(["LC_ALL": "C", "LANG": "en_US.UTF-8"]).utf8)
        #expect(!env([:]).utf8)
        #expect(env(["LC_CTYPE": "de_DE.UTF-8"]).utf8)
        #expect(env(["LANG": "de_DE.UTF-8@euro"]).utf8)
        #expect(!env(["LANG": "en_US.ISO-8859-1"]).utf8)
    }

    @Test func aDumbOrSmallTerminalIsRefusedWithAReason() {
        let xterm = env(["TERM": "xterm"])
        #expect(xterm.unusable(size: TerminalSize(rows: 24, columns: 80), minimum: minimum) == nil)
        #expect(xterm.unusable(size: TerminalSize(rows: 23, columns: 80), minimum: minimum)?.contains("80×23") == true)
        #expect(
            xterm.unusable(size: TerminalSize(rows: 24, columns: 79), minimum: minimum)?.contains("at least 80×24")
                == true)
        #expect(
            env(["TERM": "dumb"]).unusable(size: TerminalSize(rows: 50, columns: 200), minimum: minimum)?.contains(
                "TERM=dumb") == true)
    }
}
