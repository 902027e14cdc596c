import Testing

@testable import SensorLive

@Suite struct LiveLineBufferTests {
    @Test func splitsLinesAcrossReads() throws {
        var b = LiveLineBuffer(limit: 10)
        try b.append(Array("ab".utf8))
        #expect(try b.nextLine() == nil)
        try b.append(Array("c\nde\nf".utf8))
        #expect(try b.nextLine() == "abc")
        #expect(try b.nextLine() == "de")
        #expect(try b.nextLine() == nil)
        #expect(b.hasPartialLine)
    }

    @Test func refusesALineLongerThanTheLimit() throws {
        var b = LiveLineBuffer(limit: 4)
        #expect(throws: LiveProtocolError.self) { try b.append(Array("12345".utf8)) }
        var c = LiveLineBuffer(limit: 4)
        try c.append(Array("123456\n".utf8))
        #expect(throws: LiveProtocolError.self) { try c.nextLine() }
    }

    @Test func aLongLineTakenGivesItsStorageBack() throws {
        var b = LiveLineBuffer(limit: 1 << 24)
        let long = [UInt8](repeating: 65, count: 1 << 20) + [10]
        try b.append(long)
        #expect(try b.nextLine()?.utf8.count == 1 << 20)
        #expect(try b.nextLine() == nil)
        try b.append(Array("next\n".utf8))
        #expect(b.capacity <= LiveLineBuffer.keptCapacity)
        #expect(try b.nextLine() == "next")
    }
}
