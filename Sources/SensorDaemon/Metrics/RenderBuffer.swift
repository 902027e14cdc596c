#if canImport(Glibc)
import Glibc
#endif

/// A growable byte buffer for ``PrometheusRenderer``, kept from one render to the next.
///
/// Rendering a thousand sensors appends some five thousand short pieces; `Array`'s
/// per-call checks (uniqueness, capacity, generic copying) were the larger part of that, so
/// this is raw memory with one capacity check per append.
final class RenderBuffer {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written so far.
    private(set) var count = 0

    init(capacity: Int = 4096) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Empties the buffer, keeping its memory.
    func removeAll() { count = 0 }

    /// The bytes written.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// Makes room for `n` more bytes.
    @inline(__always)
    func reserve(_ n: Int) {
        if count + n > capacity { grow(count + n) }
    }

    private func grow(_ needed: Int) {
        var size = capacity
        while size < needed { size *= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        bigger.update(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = size
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let src = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: src, count: bytes.count)
        count += bytes.count
    }

    func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    func append(_ s: String) {
        var s = s
        s.withUTF8 { append($0) }
    }

    /// Replaces the bytes written at `offset` with `bytes` (as many, all within the text).
    @inline(__always)
    func overwrite(at offset: Int, with bytes: UnsafeBufferPointer<UInt8>) {
        precondition(offset >= 0 && offset + bytes.count <= count, "an overwrite stays within the text")
        guard let src = bytes.baseAddress else { return }
        (base + offset).update(from: src, count: bytes.count)
    }

    /// Appends a copy of bytes already written (at `range`).
    func appendCopy(of range: Range<Int>) {
        reserve(range.count)
        (base + count).update(from: base + range.lowerBound, count: range.count)
        count += range.count
    }

    /// `units / 10^decimals` in decimal, without trailing zeros (and without a point for a
    /// whole number).
    func appendFixed(_ units: Int64, decimals: Int) {
        reserve(24 + decimals)
        var v = units.magnitude
        var fractionDigits = decimals
        // Trailing zeros of the fraction are dropped.
        while fractionDigits > 0, v % 10 == 0 {
            v /= 10
            fractionDigits -= 1
        }
        var digits = 1
        var rest = v / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let intDigits = max(digits - fractionDigits, 1)
        let length = (units < 0 ? 1 : 0) + intDigits + (fractionDigits > 0 ? fractionDigits + 1 : 0)
        var i = count + length
        count += length
        if fractionDigits > 0 {
            for _ in 0..<fractionDigits {
                i -= 1
                base[i] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
            }
            i -= 1
            base[i] = UInt8(ascii: ".")
        }
        for _ in 0..<intDigits {
            i -= 1
            base[i] = UInt8(ascii: "0") + UInt8(v % 10)
            v /= 10
        }
        if units < 0 { base[i - 1] = UInt8(ascii: "-") }
    }
}
