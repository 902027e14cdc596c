/// Makes chip names unique the way SPEC §4 says: the first chip of a name keeps it, the
/// next ones get `<name>.1`, `<name>.2`, … in the order of their resolved `device` path,
/// then (chips without a device) of their directory index.
enum SysfsNames {
    /// One chip or device directory as found by a scan.
    struct Chip {
        var name: String
        var devicePath: String?
        var index: Int
    }

    /// The unique name of each chip, in the order given.
    static func unique(_ chips: [Chip]) -> [String] {
        var result = chips.map(\.name)
        let groups = Dictionary(grouping: chips.indices, by: { chips[$0].name })
        for (name, members) in groups where members.count > 1 {
            let ordered = members.sorted { a, b in
                let (ca, cb) = (chips[a], chips[b])
                switch (ca.devicePath, cb.devicePath) {
                case let (pa?, pb?) where pa != pb: return pa.utf8.lexicographicallyPrecedes(pb.utf8)
                case (.some, nil): return true
                case (nil, .some): return false
                default: return ca.index < cb.index
                }
            }
            for (n, i) in ordered.enumerated() where n > 0 { result[i] = "\(name).\(n)" }
        }
        return result
    }

    /// The number at the end of `hwmon3` or `iio:device12`, or `Int.max` when there is none.
    static func index(of entry: String, after prefix: String) -> Int {
        Int(entry.dropFirst(prefix.count)) ?? Int.max
    }
}
