import SensorCore

/// Reads the limit files of hwmon sensors and the trip points of thermal zones at discovery
/// (SPEC §16), through the reader's ``SysfsIO``: a limit file that blocks is ignored
/// (`read blocked`) and stalls nothing, as every other file read there.
enum SysfsLimitFiles {
    /// The limit files of hwmon sensor `stem` (`temp1`) that `present` (the file names of its
    /// directory) holds, as positions in the list of its quantity's limit files: the files to
    /// read for it, named by ``hwmonFile(_:quantity:)``.
    static func hwmonFiles(stem: String, present: Set<String>, quantity: Quantity) -> [Int] {
        let prefix = stem + "_"
        let names = files(of: quantity)
        return names.indices.filter { present.contains(prefix + names[$0]) }
    }

    /// The limit name (`max`, `crit_hyst`) at `position` of ``hwmonFiles(stem:present:quantity:)``.
    static func hwmonFile(_ position: Int, quantity: Quantity) -> String { files(of: quantity)[position] }

    /// The limits of a sensor of `quantity` whose limit files `files` (``hwmonFiles(stem:present:quantity:)``)
    /// are read in `batch` from index `first` on, in that order.
    static func hwmon(
        files: [Int], batch: SysfsFileBatch, first: Int, quantity: Quantity, decimalExponent: Int, io: any SysfsIO
    ) -> SensorLimits {
        guard !files.isEmpty else { return .none }
        let slots = slots(of: quantity)
        var found = LimitPlausibility.Files()
        for (k, position) in files.enumerated() {
            let result = batch.result(first + k) { n, slot in
                parse(n, slot, path: { batch.path(first + k) }, decimalExponent: decimalExponent, io: io)
            }
            found.set(slot: slots[position], result)
        }
        return LimitPlausibility.judge(found, quantity: quantity)
    }

    /// The limit names hwmon files of `quantity` may hold (SPEC §16, §16a).
    static func names(of quantity: Quantity) -> [String] {
        switch quantity {
        case .temperature: return ["max", "crit", "emergency", "min", "lcrit"]
        case .fan: return ["min", "max"]
        case .voltage, .current: return ["min", "max", "lcrit", "crit"]
        case .power: return ["max", "crit", "cap"]
        case .humidity, .pressure, .state: return []
        }
    }

    /// Each name of ``names(of:)`` followed by its `_hyst`: made once per quantity, not once
    /// per sensor.
    static func files(of quantity: Quantity) -> [String] { table(quantity).files }

    /// Each file of ``files(of:)``'s slot in ``LimitPlausibility/Files``: every name there
    /// is a known limit or its `_hyst` (a test holds each quantity to it).
    static func slots(of quantity: Quantity) -> [Int] { table(quantity).slots }

    private typealias Table = (files: [String], slots: [Int])

    private static func table(_ quantity: Quantity) -> Table {
        switch quantity {
        case .temperature: return temperatureTable
        case .fan: return fanTable
        case .voltage, .current: return electricTable
        case .power: return powerTable
        case .humidity, .pressure, .state: return ([], [])
        }
    }

    private static func makeTable(_ quantity: Quantity) -> Table {
        let files = names(of: quantity).flatMap { [$0, $0 + "_hyst"] }
        return (files, files.map { LimitPlausibility.slot(of: $0)! })
    }
    private static let temperatureTable = makeTable(.temperature)
    private static let fanTable = makeTable(.fan)
    private static let electricTable = makeTable(.voltage)
    private static let powerTable = makeTable(.power)

    /// The trip points of thermal zone `dir` as limits: `critical` is `crit`; `hot`,
    /// `passive`, `active` keep their names; of several trips of one type the lowest
    /// plausible one counts; `trip_point_K_hyst` is a delta below its trip.
    static func thermal(dir: String, entries: [String], io: any SysfsIO) -> SensorLimits {
        struct Trip { var temp: LimitPlausibility.Found; var hyst: String? }
        var trips: [String: [Trip]] = [:]
        for entry in entries where entry.hasPrefix("trip_point_") && entry.hasSuffix("_type") {
            let base = dir + "/" + entry.dropLast("type".count)
            guard let type = SysfsTree.text(dir + "/" + entry, io: io) else { continue }
            let name: String
            switch type {
            case "critical": name = "crit"
            case "hot", "passive", "active": name = type
            default: continue
            }
            let hyst = entries.contains(entry.dropLast("type".count) + "hyst") ? base + "hyst" : nil
            trips[name, default: []].append(Trip(temp: number(base + "temp", decimalExponent: -3, io: io), hyst: hyst))
        }
        guard !trips.isEmpty else { return .none }
        var found: [String: LimitPlausibility.Found] = [:]
        for (name, candidates) in trips {
            let plausible = candidates.filter {
                guard case .success(let v) = $0.temp else { return false }
                return LimitPlausibility.implausible(v, name: name, quantity: .temperature, lowestUpper: nil) == nil
            }
            let lowest = plausible.min { (try? $0.temp.get()) ?? 0 < (try? $1.temp.get()) ?? 0 }
            guard let trip = lowest ?? candidates.first else { continue }
            found[name] = trip.temp
            if let hyst = trip.hyst, case .success(let t) = trip.temp {
                // The delta is printed from the same struct as the trip temperatures: m°C.
                found[name + "_hyst"] = number(hyst, decimalExponent: -3, io: io).map { t - $0 }
            }
        }
        return LimitPlausibility.judge(found, quantity: .temperature)
    }

    /// The number in limit file `path` × 10^`decimalExponent`, or why there is none: a thermal
    /// zone's trip point, read alone (hwmon's limit files go in their chip's ``SysfsFileBatch``).
    private static func number(_ path: String, decimalExponent: Int, io: any SysfsIO) -> LimitPlausibility.Found {
        let fd = io.open(path)
        defer { if fd >= 0 { io.close(fd) } }
        return withUnsafeTemporaryAllocation(byteCount: SysfsSensorSet.bufferSize, alignment: 8) { buffer in
            let n = fd < 0 ? Int(fd) : io.read(fd, into: buffer)
            return parse(n, UnsafeRawBufferPointer(buffer), path: { path }, decimalExponent: decimalExponent, io: io)
        }
    }

    /// What `n` bytes read from `path` into `slot` (or `-errno`, or an open's failure) give.
    ///
    /// Parsed from the bytes as read, without making a `String`: making and trimming one
    /// for each of ten thousand limit files cost about as much as their system calls.
    private static func parse(
        _ n: Int, _ slot: UnsafeRawBufferPointer, path: () -> String, decimalExponent: Int, io: any SysfsIO
    ) -> LimitPlausibility.Found {
        if n < 0 {
            let blocked = n == Int(GuardedSysfsIO.blockedResult) || io.isBlocked(path())
            return .failure(.other(blocked ? "read blocked" : "cannot be read"))
        }
        let bytes = UnsafeRawBufferPointer(rebasing: slot[0..<n])
        if n < slot.count, case .number(let v) = SysfsValueParser.parse(bytes, decimalExponent: decimalExponent) {
            return .success(v)
        }
        return .failure(.other("not a number: " + SysfsSensorSet.quoted(bytes)))
    }
}
