import SensorTerminal
import Testing

@Suite struct KeyDecoderTests {
    private func keys(_ text: String) -> [Key] {
        var d = KeyDecoder()
        return d.keys(Array(text.utf8))
    }

    @Test func arrowsPagesHomeAndEndInEveryForm() {
        #expect(keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
        #expect(keys("\u{1B}OA\u{1B}OB") == [.up, .down])
        #expect(keys("\u{1B}[5~\u{1B}[6~") == [.pageUp, .pageDown])
        #expect(
            keys("\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}OH\u{1B}OF\u{1B}[7~\u{1B}[8~")
                == [.home, .end, .home, .end, .home, .end, .home, .end])
    }

    @Test func controlKeysEnterAndText() {
        #expect(
            keys("\u{03}\u{0C}\r\u{7F}q/?") == [
                .ctrl("c"), .ctrl("l"), .enter, .backspace, .character("q"), .character("/"), .character("?"),
            ])
        #expect(keys("é") == [.character("é")])
    }

    @Test func aSequenceCutBetweenReadsWaitsForItsRest() {
        var d = KeyDecoder()
        #expect(d.keys([0x1B, 0x5B]) == [])
        #expect(d.keys([0x35]) == [])
        #expect(d.keys([0x7E, 0x71]) == [.pageUp, .character("q")])
        #expect(d.keys([0xC3]) == [])
        #expect(d.keys([0xA9]) == [.character("é")])
    }

    @Test func aLoneEscapeIsTheEscapeKey() {
        #expect(keys("\u{1B}") == [.escape])
        #expect(keys("\u{1B}q") == [.escape, .character("q")])
    }

    @Test func anUnknownSequenceIsReadWholeAndDropped() {
        #expect(keys("\u{1B}[15~x") == [.unknown, .character("x")])
        #expect(keys("\u{1B}[1;5A") == [.up])
    }
}
