/// How many terminal cells text takes, as a terminal draws it (East Asian Wide and Fullwidth
/// characters and emoji two, combining marks and zero-width characters none, the rest one).
///
/// The one way the project measures text for a column or a screen cell: a table padded by
/// `String.count` pushes its columns out by one for every CJK character of a label, and a
/// full-screen view drawn by scalar count writes past its right edge. Glibc's `wcwidth`
/// would need a UTF-8 locale the daemon and a static binary cannot count on, so the ranges
/// are here (Unicode 15's East Asian Width `W`/`F` and the common zero-width classes).
/// Control characters count one: text from outside is escaped (``DisplayText``) before it
/// is measured.
public enum DisplayWidth {
    /// The cells `text` takes.
    public static func cells(_ text: String) -> Int {
        var total = 0
        for scalar in text.unicodeScalars { total += cells(scalar) }
        return total
    }

    /// The cells one scalar takes: 0, 1 or 2.
    public static func cells(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x300 { return 1 }  // ASCII and Latin: nearly every character
        if isZeroWidth(v) { return 0 }
        return isWide(v) ? 2 : 1
    }

    /// `text` padded with spaces on the right to `width` cells (unchanged when wider).
    public static func padded(_ text: String, to width: Int) -> String {
        let have = cells(text)
        return have >= width ? text : text + String(repeating: " ", count: width - have)
    }

    /// The longest prefix of `text` that fits in `width` cells.
    public static func prefix(_ text: String, fitting width: Int) -> String {
        var used = 0
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let w = cells(scalar)
            if used + w > width { break }
            used += w
            out.append(scalar)
        }
        return String(out)
    }

    private static func isZeroWidth(_ v: UInt32) -> Bool {
        switch v {
        case 0x0300...0x036F, 0x0483...0x0489, 0x0591...0x05BD, 0x0610...0x061A, 0x064B...0x065F,
            0x0E31, 0x0E34...0x0E3A, 0x0E47...0x0E4E, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF,
            0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2064, 0x20D0...0x20FF,
            0xFE00...0xFE0F, 0xFE20...0xFE2F, 0xFEFF, 0xE0100...0xE01EF:
            return true
        default:
            return false
        }
    }

    private static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
            0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB,
            0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA,
            0x26FD, 0x2705, 0x270A...0x270B, 0x2728, 0x274C, 0x274E, 0x2753...0x2755, 0x2757,
            0x2795...0x2797, 0x27B0, 0x27BF, 0x2B1B...0x2B1C, 0x2B50, 0x2B55,
            0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
            0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F300...0x1F64F,
            0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF,
            0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
