/// Reads keys from the bytes a terminal sends in raw mode: printable text, control keys,
/// and the escape sequences of arrows, PgUp/PgDn and Home/End in both the `CSI` and the
/// application (`SS3`) forms that xterm, tmux, the Linux console and PuTTY send.
///
/// A sequence cut between two reads is kept until the rest comes. An `ESC` that ends a read
/// is the Escape key: terminals send a sequence in one write, and a person's Escape comes
/// alone.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    /// A decoder with nothing pending.
    public init() {}

    /// The keys in `bytes` (after what an earlier call left pending).
    public mutating func keys(_ bytes: [UInt8]) -> [Key] {
        let input = pending + bytes
        pending = []
        var keys: [Key] = []
        var i = 0
        while i < input.count {
            let b = input[i]
            switch b {
            case 0x1B:
                guard i + 1 < input.count else {
                    keys.append(.escape)
                    i += 1
                    continue
                }
                let next = input[i + 1]
                guard next == 0x5B || next == 0x4F else {  // ESC [ or ESC O
                    keys.append(.escape)
                    i += 1
                    continue
                }
                // Parameters, then one final byte in 0x40…0x7E.
                var j = i + 2
                while j < input.count, !(0x40...0x7E).contains(input[j]) { j += 1 }
                guard j < input.count else {
                    pending = Array(input[i...])
                    return keys
                }
                keys.append(Self.sequence(params: Array(input[(i + 2)..<j]), final: input[j]))
                i = j + 1
            case 0x0D, 0x0A: keys.append(.enter); i += 1
            case 0x7F, 0x08: keys.append(.backspace); i += 1
            case 0x09: keys.append(.tab); i += 1
            case 0x00..<0x20:
                keys.append(.ctrl(Character(Unicode.Scalar(b + 0x60))))
                i += 1
            default:
                // A UTF-8 character: its length from the lead byte; cut short, wait for the rest.
                let length = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1
                guard i + length <= input.count else {
                    pending = Array(input[i...])
                    return keys
                }
                let text = String(decoding: input[i..<(i + length)], as: UTF8.self)
                keys.append(text.first.map { Key.character($0) } ?? .unknown)
                i += length
            }
        }
        return keys
    }

    private static func sequence(params: [UInt8], final: UInt8) -> Key {
        switch final {
        case 0x41: return .up  // A
        case 0x42: return .down
        case 0x43: return .right
        case 0x44: return .left
        case 0x48: return .home  // H
        case 0x46: return .end  // F
        case 0x7E:  // ~: the number says which
            switch String(decoding: params.prefix { $0 != 0x3B }, as: UTF8.self) {
            case "1", "7": return .home
            case "4", "8": return .end
            case "5": return .pageUp
            case "6": return .pageDown
            default: return .unknown
            }
        default: return .unknown
        }
    }
}
