import Testing
@testable import SensorCore

struct SampleRingTests {
    static func sample(_ i: Int) -> SampleRing.Sample { SampleRing.Sample(time: Int64(i), value: Double(i)) }

    @Test func keepsItsSamplesInOrderAcrossTheWrapAndAGrowthWhileWrapped() {
        var ring = SampleRing()
        for i in 0..<8 { ring.append(Self.sample(i)) }
        // Let the oldest five go and add five: the newest now sit at the front of the storage.
        for _ in 0..<5 { ring.removeFirst() }
        for i in 8..<13 { ring.append(Self.sample(i)) }
        #expect((0..<ring.count).map { ring[$0].time } == Array(5..<13))
        // Full while wrapped: growing keeps the order.
        for i in 13..<20 { ring.append(Self.sample(i)) }
        #expect((0..<ring.count).map { ring[$0].time } == Array(5..<20))
        #expect(ring.first.time == 5)
        #expect(ring.last.time == 19)
    }

    @Test func letsSamplesGoAtEitherEnd() {
        var ring = SampleRing()
        for i in 0..<4 { ring.append(Self.sample(i)) }
        ring.removeLast()
        ring.removeFirst()
        #expect(ring.count == 2)
        #expect(ring.first.value == 1)
        #expect(ring.last.value == 2)
        ring.append(Self.sample(9))
        #expect((0..<ring.count).map { ring[$0].time } == [1, 2, 9])
    }
}
