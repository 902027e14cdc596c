#if canImport(Glibc)
import Glibc
#endif
@testable import SensorCore
@testable import SensorRuntime
import Testing

/// The least-squares window of `predict` rules (SPEC §10) against a fresh two-pass fit.
struct TrendWindowTests {
    /// The line through `points` by ordinary least squares, computed afresh: centred two-pass
    /// sums with times relative to the newest one, read `ahead` of it. nil without a line.
    static func freshFit(_ points: [(time: Int64, value: Double)], ahead: Duration) -> Double? {
        guard let newest = points.last?.time, points.contains(where: { $0.time != newest }) else { return nil }
        let xs = points.map { Double($0.time - newest) / 1e9 }
        let ys = points.map(\.value)
        let n = Double(points.count)
        let mx = xs.reduce(0, +) / n
        let my = ys.reduce(0, +) / n
        var cxx = 0.0
        var cxy = 0.0
        for i in xs.indices {
            cxx += (xs[i] - mx) * (xs[i] - mx)
            cxy += (xs[i] - mx) * (ys[i] - my)
        }
        return my + cxy / cxx * (Double(ahead.nanoseconds) / 1e9 - mx)
    }

    /// A deterministic generator (64-bit LCG), so the long runs are the same every time.
    struct Generator {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(UInt64(1) << 53)
        }
    }

    @Test func noLineWithFewerThanTwoDistinctTimes() {
        var w = TrendWindow(width: .seconds(10), horizon: .zero)
        #expect(w.predict(ahead: .seconds(1)) == nil)
        w.push(5, at: .seconds(1))
        #expect(w.predict(ahead: .seconds(1)) == nil)
        // Two samples at one time are still one time.
        w.push(7, at: .seconds(1))
        #expect(w.predict(ahead: .seconds(1)) == nil)
        w.push(9, at: .seconds(2))
        #expect(w.predict(ahead: .seconds(1)) != nil)
    }

    @Test func anExactLineIsReadAhead() {
        var w = TrendWindow(width: .seconds(60), horizon: .zero)
        for t in 0...10 { w.push(20 + 0.5 * Double(t), at: .seconds(Double(t))) }
        #expect(w.predict(ahead: .seconds(10)) == 30)
        #expect(w.predict(ahead: .seconds(0)) == 25)
    }

    @Test func theLineAtTIsTheFitsNotTheSample() {
        // (0,0) (1,2) (2,1): slope 0.5, mean 1 at x̄ = 1, so the line is 1.5 at t = 2, not 1.
        var w = TrendWindow(width: .seconds(2), horizon: .zero)
        w.push(0, at: .seconds(0))
        w.push(2, at: .seconds(1))
        w.push(1, at: .seconds(2))
        #expect(w.predict(ahead: .zero) == 1.5)
        #expect(w.predict(ahead: .seconds(2)) == 2.5)
    }

    @Test func aSampleAtExactlyTMinusWIsInAndOneNanosecondOlderIsOut() {
        var inside = TrendWindow(width: .seconds(10), horizon: .zero)
        for (t, v) in [(0.0, 0.0), (5, 50), (10, 60)] { inside.push(v, at: .seconds(t)) }
        // With (0, 0): slope 6, x̄ = 5, ȳ = 110/3, read at 20: 110/3 + 6 · 15.
        #expect(abs(inside.predict(ahead: .seconds(10))! - (110.0 / 3 + 90)) < 1e-12)
        #expect(inside.count == 3)

        var outside = TrendWindow(width: .seconds(10), horizon: .zero)
        for (t, v) in [(0.0, 0.0), (5, 50)] { outside.push(v, at: .seconds(t)) }
        outside.push(60, at: Timestamp(nanoseconds: 10_000_000_001))
        #expect(outside.count == 2)
        #expect(abs(outside.predict(ahead: .seconds(10))! - 80) < 1e-6)
    }

    @Test func aWindowThatEmptiesStartsAfresh() {
        var w = TrendWindow(width: .seconds(5), horizon: .zero)
        w.push(1, at: .seconds(0))
        w.push(2, at: .seconds(1))
        w.push(100, at: .seconds(100))
        #expect(w.count == 1)
        #expect(w.predict(ahead: .seconds(1)) == nil)
        w.push(104, at: .seconds(102))
        #expect(w.predict(ahead: .seconds(2)) == 108)
    }

    /// SPEC §10 and issue 11: running sums over a moving origin lose no precision in a long
    /// run. 10⁸ s (over three years) of irregular samples, each step 50–150 s, a one-hour
    /// window: at every 997th sample and at the end, the prediction equals a fresh fit of the
    /// same window within 1e-9.
    @Test func afterAHundredMillionSecondsThePredictionStillEqualsAFreshFit() {
        let width = Duration.seconds(3600)
        let ahead = Duration.seconds(600)
        var w = TrendWindow(width: width, horizon: ahead)
        var recent: [(time: Int64, value: Double)] = []
        var random = Generator(state: 11)
        var t: Int64 = 0
        var checked = 0
        var pushes = 0
        var worst = 0.0
        while t <= 100_000_000_000_000_000 {
            // A slow drift, a daily cycle and noise, around 40 (°C, say).
            let s = Double(t) / 1e9
            let v = 40 + 1e-7 * s + 8 * sin(2 * Double.pi * s / 86_400) + random.next()
            let p = w.push(v, at: Timestamp(nanoseconds: t))
            recent.append((t, v))
            while recent[0].time < t - width.nanoseconds { recent.removeFirst() }
            pushes += 1
            if pushes % 997 == 0 || t + 150_000_000_000 > 100_000_000_000_000_000 {
                let fresh = Self.freshFit(recent, ahead: ahead)
                #expect((fresh == nil) == (p == nil))
                if let fresh, let p { worst = max(worst, abs(p - fresh)) }
                checked += 1
            }
            t += 50_000_000_000 + Int64(random.next() * 100_000_000_000)
        }
        #expect(t > 100_000_000_000_000_000)
        #expect(checked > 600)
        #expect(worst <= 1e-9, "worst difference \(worst)")
        print("10^8 s run: \(pushes) samples, worst difference \(worst)")
    }

    /// The same with a dense window (3600 samples, one a second) starting at 10⁸ s, with
    /// values far from zero (pressure, hPa) and a steep slope: 10⁶ samples.
    @Test func aDenseWindowFarFromTheStartMatchesAFreshFit() {
        let width = Duration.seconds(3600)
        let ahead = Duration.seconds(1800)
        var w = TrendWindow(width: width, horizon: ahead)
        var recent: [(time: Int64, value: Double)] = []
        recent.reserveCapacity(8000)
        var random = Generator(state: 5)
        var worst = 0.0
        let start: Int64 = 100_000_000_000_000_000
        for k in 0..<1_000_000 {
            let t = start + Int64(k) * 1_000_000_000 + Int64(random.next() * 1_000_000)
            let v = 1013 + 3 * sin(Double(k) / 5000) + 0.05 * random.next()
            let p = w.push(v, at: Timestamp(nanoseconds: t))
            recent.append((t, v))
            if k % 4096 == 4095 || k == 999_999 {
                recent.removeAll { $0.time < t - width.nanoseconds }
                if let fresh = Self.freshFit(recent, ahead: ahead), let p {
                    worst = max(worst, abs(p - fresh))
                } else {
                    Issue.record("no line at sample \(k)")
                }
            }
        }
        #expect(worst <= 1e-9, "worst difference \(worst)")
        print("dense run: worst difference \(worst)")
    }
}
