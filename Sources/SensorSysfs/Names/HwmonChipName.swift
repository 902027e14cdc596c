/// The name lm-sensors (libsensors 3.6) gives an hwmon chip, `<name>-<bus>-<address>`
/// (SPEC §4), so that `sensors coretemp-isa-0000` and `hwmon:coretemp-isa-0000/temp1` name
/// the same chip on every boot, whatever `hwmonN` it got.
///
/// As libsensors does: the bus is the last part of the device's `subsystem` link (else its
/// `bus` link); a device whose subsystem names no bus (nvme, ieee80211, thermal) hands over
/// to the device its own `device` link resolves to, until one does; none is `virtual`. The
/// address is parsed from the device directory's name the way its `sscanf` formats do.
enum HwmonChipName {
    /// `prefix` is the chip's `name`; `device` the resolved `hwmonN/device` (nil when it has
    /// none); `adapters` the directory of the i2c adapters (`/sys/class/i2c-adapter`), whose
    /// `i2c-N/device/name` tells an ISA bridge from a real i2c bus.
    static func name(prefix: String, device: String?, adapters: String, io: any SysfsIO) -> String {
        var path = device
        // libsensors walks without a bound; a `device` link that loops must not wedge us.
        var hops = 0
        while let dir = path, hops < 16 {
            let devName = String(dir.split(separator: "/").last ?? "")
            let subsystem = SysfsTree.linkName(dir + "/subsystem") ?? SysfsTree.linkName(dir + "/bus")
            if let bus = bus(devName, subsystem: subsystem, adapters: adapters, io: io) { return prefix + "-" + bus }
            path = SysfsTree.realPath(dir + "/device")
            hops += 1
        }
        return prefix + "-virtual-0"
    }

    /// The `<bus>-<address>` part for a device named `dev` on `subsystem` (nil: the link is
    /// missing, then every format is tried as libsensors does), or nil for a bus libsensors
    /// does not know.
    private static func bus(_ dev: String, subsystem: String?, adapters: String, io: any SysfsIO) -> String? {
        let any = subsystem == nil
        if any || subsystem == "i2c", let v = Scan(dev).fields("h-x") {
            let (nr, addr) = (Int16(truncatingIfNeeded: v[0]), v[1])
            // Bus 9191 is the legacy ISA pseudo-adapter; an adapter named "ISA …" bridges one.
            let adapter = SysfsTree.text(adapters + "/i2c-\(nr)/device/name", io: io)
            if nr == 9191 || adapter?.hasPrefix("ISA ") == true { return "isa-" + hex(addr, width: 4) }
            return "i2c-\(nr)-" + hex(addr, width: 2)
        }
        if any || subsystem == "spi", let v = Scan(dev).fields("`spi`h.d") {
            return "spi-\(Int16(truncatingIfNeeded: v[0]))-" + hex(v[1], width: 1)
        }
        if any || subsystem == "pci", let v = Scan(dev).fields("x:x:x.x") {
            return "pci-" + hex((v[0] &<< 16) &+ (v[1] &<< 8) &+ (v[2] &<< 3) &+ v[3], width: 4)
        }
        if any || subsystem == "platform" || subsystem == "of_platform" {
            return "isa-" + hex(Scan(dev).fields("w.d")?[0] ?? 0, width: 4)
        }
        switch subsystem {
        case "acpi":
            return "acpi-0"
        case "hid":
            guard let v = Scan(dev).fields("x:x:x.x") else { return nil }
            return "hid-\(Int16(truncatingIfNeeded: v[0]))-" + hex(v[3], width: 1)
        case "mdio_bus":
            return "mdio-" + hex(Scan(dev).fields("c:d")?[0] ?? 0, width: 1)
        case "scsi":
            guard let v = Scan(dev).fields("d:d:d:x") else { return nil }
            return "scsi-\(Int16(truncatingIfNeeded: v[0]))-" + hex((v[1] &<< 8) &+ (v[2] &<< 4) &+ v[3], width: 1)
        default:
            return nil
        }
    }

    /// `%0Nx` of a C `int`: negative values print as their 32-bit pattern.
    private static func hex(_ value: Int32, width: Int) -> String {
        let digits = String(UInt32(bitPattern: value), radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// The part of `sscanf` libsensors' formats use, on a device directory's name.
    ///
    /// A format here is a string of: `d` (`%d`), `h` (`%hd`), `x` (`%x`), `w` (`%*[a-z0-9_]`,
    /// skipped), `c` (`%*[^:]`, skipped), a literal in backquotes, or any other byte matched
    /// as itself. Like `sscanf`, trailing text after the last conversion is ignored.
    private struct Scan {
        private let bytes: [UInt8]
        private var at = 0

        init(_ text: String) { bytes = Array(text.utf8) }

        /// The converted numbers when every conversion of `format` matched, else nil.
        func fields(_ format: String) -> [Int32]? {
            var scan = self
            var out: [Int32] = []
            var literal = false
            for f in format.utf8 {
                if f == UInt8(ascii: "`") { literal.toggle(); continue }
                if literal { guard scan.take(f) else { return nil }; continue }
                switch f {
                case UInt8(ascii: "d"), UInt8(ascii: "h"):
                    guard let n = scan.number(radix: 10) else { return nil }; out.append(n)
                case UInt8(ascii: "x"): guard let n = scan.number(radix: 16) else { return nil }; out.append(n)
                case UInt8(ascii: "w"): guard scan.skip(while: Self.isWordByte) else { return nil }
                case UInt8(ascii: "c"): guard scan.skip(while: { $0 != UInt8(ascii: ":") }) else { return nil }
                default: guard scan.take(f) else { return nil }
                }
            }
            return out
        }

        private static func isWordByte(_ b: UInt8) -> Bool {
            (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
                || b == UInt8(ascii: "_")
        }

        private mutating func take(_ b: UInt8) -> Bool {
            guard at < bytes.count, bytes[at] == b else { return false }
            at += 1
            return true
        }

        /// One or more bytes that satisfy `test`.
        private mutating func skip(while test: (UInt8) -> Bool) -> Bool {
            let start = at
            while at < bytes.count, test(bytes[at]) { at += 1 }
            return at > start
        }

        /// `%d` / `%x`: leading blanks, a sign, for hex an optional `0x`, one or more digits;
        /// the value wraps as a C `int` would rather than trap on a hostile name.
        private mutating func number(radix: Int) -> Int32? {
            while at < bytes.count, bytes[at] == 0x20 || (bytes[at] >= 0x09 && bytes[at] <= 0x0D) { at += 1 }
            var negative = false
            if at < bytes.count, bytes[at] == UInt8(ascii: "-") || bytes[at] == UInt8(ascii: "+") {
                negative = bytes[at] == UInt8(ascii: "-")
                at += 1
            }
            if radix == 16, at + 2 < bytes.count, bytes[at] == UInt8(ascii: "0"),
                bytes[at + 1] | 0x20 == UInt8(ascii: "x"),
                Self.digit(bytes[at + 2], radix) != nil
            {
                at += 2
            }
            var value: Int32 = 0
            let start = at
            while at < bytes.count, let d = Self.digit(bytes[at], radix) {
                value = value &* Int32(radix) &+ Int32(d)
                at += 1
            }
            guard at > start else { return nil }
            return negative ? 0 &- value : value
        }

        private static func digit(_ b: UInt8, _ radix: Int) -> Int? {
            let d: Int
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = Int(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = Int(b - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = Int(b - UInt8(ascii: "A")) + 10
            default: return nil
            }
            return d < radix ? d : nil
        }
    }
}
