import SensorConfig
import SensorCore
import SensorRuntime

/// The discovered sensors of one reader with their open files; lives inside the reader's lock.
///
/// Reading allocates nothing per sample on the success path: buffers kept across polls,
/// the allocation-free ``SysfsValueParser``, and descriptors kept open across polls.
/// Fault reasons are built (and allocate) only when a read fails.
struct SysfsSensorSet: Sendable {
    /// Channels in id order.
    private(set) var channels: [SysfsChannel] = []
    /// Whether ``replace(with:io:)`` ran at least once.
    private(set) var discovered = false
    /// Each channel's input as read in the first pass of ``poll(at:io:)`` (kept between polls).
    private var inputs: [UInt8] = []
    private var lengths: [Int] = []
    /// Each channel's input descriptor (-1 when not open), kept beside the channels so the
    /// read pass walks 4 bytes per sensor instead of whole channels.
    private var fds: [Int32] = []
    /// What parsing needs of each channel; nil for channels that read more than their input
    /// (IIO raw values, hwmon fault flags, sht3x errno values) and take the full path.
    private var plans: [Plan?] = []
    /// For a channel with an ``SysfsChannel/errnoWitness``: the index of the channel that
    /// reads that humidity, when it comes earlier in the poll (ids sort `humidityN` before
    /// `tempN` of one chip), so its reading of this very poll decides; else the witness
    /// file is read on its own.
    private var witnesses: [Int?] = []
    /// Channels whose last read failed: their files are opened afresh at the next
    /// discovery (SPEC §4: a device that went away and came back has a new file).
    private var failed: [Int] = []
    /// The distinct `power/runtime_status` files of the channels' devices (SPEC §20), kept
    /// open and read once per poll each; empty when no channel's device has one.
    private var powerFiles: [SysfsFile] = []
    /// Per channel, its device chain's positions in ``powerFiles`` (empty: never asleep).
    private var gates: [[Int]] = []
    /// Per channel, whether it sleeps at this poll; and ``fds`` with -1 for those, so the
    /// batch of reads skips them (the C loop makes no system call for a negative descriptor).
    private var sleeping: [Bool] = []
    private var awakeFDs: [Int32] = []
    /// Per power file, whether it said `suspended` at this poll (memory kept across polls).
    private var suspended: [Bool] = []
    /// Whether a power file that said `suspended` at a poll since the last discovery says
    /// otherwise now: that device's files were not read while it slept, so the reader
    /// discovers again (``SysfsReader/devicesChanged()``).
    private(set) var wokeSinceDiscovery = false
    /// Where the batch of reads has got to, for the stall watch (``GuardedSysfsIO``).
    private let progress = SysfsReadProgress()

    /// A plain channel's value is its input × 10^exponent: a few bytes to look at per sample
    /// instead of a whole ``SysfsChannel`` (three cache lines, cold at every poll).
    private struct Plan {
        var exponent: Int8
        var quantity: Quantity
        var plausible: PlausibleRange
    }

    private static func plan(_ channel: SysfsChannel) -> Plan? {
        guard channel.offset == nil, channel.scale == nil, channel.faultFlag == nil, channel.alarmFiles.isEmpty,
            !channel.rejectsErrnoValues,
            channel.errnoWitness == nil, channel.blocked == nil,
            let exponent = Int8(exactly: channel.decimalExponent)
        else { return nil }
        return Plan(exponent: exponent, quantity: channel.info.quantity, plausible: channel.plausible)
    }

    /// Bytes read per attribute: values are short, and a full buffer means garbage.
    static let bufferSize = 128

    /// Swaps in a fresh discovery, keeping the descriptors of files still present and
    /// closing those of vanished sensors.
    mutating func replace(with fresh: [SysfsChannel], io: any SysfsIO) {
        var open: [String: SysfsFile] = [:]
        for i in failed where i < channels.count { channels[i].close(io: io) }
        failed = []
        for channel in channels {
            for file in channel.files where file.fd >= 0 {
                // A witness can be open under the same path as a humidity channel's input.
                if var twin = open.updateValue(file, forKey: file.path) { twin.close(io: io) }
            }
        }
        var next = fresh
        for i in next.indices {
            next[i].input = open.removeValue(forKey: next[i].input.path) ?? next[i].input
            if let p = next[i].offset?.path { next[i].offset = open.removeValue(forKey: p) ?? next[i].offset }
            if let p = next[i].scale?.path { next[i].scale = open.removeValue(forKey: p) ?? next[i].scale }
            if let p = next[i].faultFlag?.path { next[i].faultFlag = open.removeValue(forKey: p) ?? next[i].faultFlag }
            if let p = next[i].errnoWitness?.path {
                next[i].errnoWitness = open.removeValue(forKey: p) ?? next[i].errnoWitness
            }
            for j in next[i].alarmFiles.indices {
                let p = next[i].alarmFiles[j].file.path
                next[i].alarmFiles[j].file = open.removeValue(forKey: p) ?? next[i].alarmFiles[j].file
            }
        }
        for var file in open.values { file.close(io: io) }
        regate(next, io: io)
        wokeSinceDiscovery = false
        channels = next
        fds = next.map(\.input.fd)
        plans = next.map(Self.plan)
        let inputIndex = Dictionary(next.indices.map { (next[$0].input.path, $0) }, uniquingKeysWith: { a, _ in a })
        witnesses = next.indices.map { i in
            next[i].errnoWitness.flatMap { inputIndex[$0.path] }.flatMap { $0 < i ? $0 : nil }
        }
        discovered = true
    }

    /// Maps each channel's device chain to the distinct power files, keeping the descriptors
    /// of those still named and closing the others.
    private mutating func regate(_ next: [SysfsChannel], io: any SysfsIO) {
        var kept = Dictionary(powerFiles.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        var position: [String: Int] = [:]
        var files: [SysfsFile] = []
        gates = next.map { channel in
            channel.powerStatus.map { path in
                if let i = position[path] { return i }
                position[path] = files.count
                files.append(kept.removeValue(forKey: path) ?? SysfsFile(path: path))
                return files.count - 1
            }
        }
        for var file in kept.values { file.close(io: io) }
        // What each file said at the last poll follows it to its new position.
        // A device the scan found asleep counts as asleep until a poll sees it awake, so
        // that poll discovers again (a device that wakes between the scan and the poll too).
        let said = Dictionary(zip(powerFiles.map(\.path), suspended), uniquingKeysWith: { a, _ in a })
        let scannedAsleep = Set(next.lazy.filter(\.discoveredAsleep).flatMap(\.powerStatus))
        suspended = files.map { (said[$0.path] ?? false) || scannedAsleep.contains($0.path) }
        powerFiles = files
    }

    /// Reads every power file once and marks the channels whose chain has one that says
    /// `suspended`; returns whether any does (then ``sleeping`` and ``awakeFDs`` are set).
    private mutating func markSleeping(io: any SysfsIO) -> Bool {
        var any = false
        if suspended.count != powerFiles.count { suspended = Array(repeating: false, count: powerFiles.count) }
        withUnsafeTemporaryAllocation(byteCount: Self.bufferSize, alignment: 8) { buffer in
            for j in powerFiles.indices {
                let n = powerFiles[j].read(into: buffer, io: io)
                let now = DevicePower.isSuspended(n, buffer)
                if suspended[j], !now { wokeSinceDiscovery = true }
                suspended[j] = now
                any = any || suspended[j]
            }
        }
        guard any else { return false }
        if sleeping.count != gates.count { sleeping = Array(repeating: false, count: gates.count) }
        if awakeFDs.count != fds.count { awakeFDs = fds }
        for i in gates.indices {
            sleeping[i] = gates[i].contains { suspended[$0] }
            awakeFDs[i] = sleeping[i] ? -1 : fds[i]
        }
        return true
    }

    /// Closes every descriptor (the reader is going away).
    mutating func closeAll(io: any SysfsIO) {
        for i in channels.indices { channels[i].close(io: io) }
        for j in powerFiles.indices { powerFiles[j].close(io: io) }
        fds = fds.map { _ in -1 }
    }

    /// Reads every channel once: one reading each, in channel order, faults included.
    mutating func poll(at time: Timestamp, io: any SysfsIO) -> SensorValues {
        let count = channels.count
        if inputs.count < count * Self.bufferSize { inputs = [UInt8](repeating: 0, count: count * Self.bufferSize) }
        if lengths.count < count { lengths = [Int](repeating: 0, count: count) }
        // Two passes: every input read back to back first (one call, over a compact array of
        // descriptors), then the parsing. Interleaved, the parsing and the walk over the
        // channels between two reads evict the kernel's file and page-cache structures, and
        // each read costs noticeably more.
        // A sleeping chip is not read at all (SPEC §20): its descriptors leave the batch.
        let asleep = !powerFiles.isEmpty && markSleeping(io: io)
        (asleep ? awakeFDs : fds).withUnsafeBufferPointer { fds in
            inputs.withUnsafeMutableBytes { all in
                lengths.withUnsafeMutableBufferPointer { lengths in
                    io.readAll(fds, into: all, stride: Self.bufferSize, lengths: lengths, progress: progress)
                }
            }
        }
        var values = SensorValues(time: time, capacity: count)
        inputs.withUnsafeMutableBytes { all in
            withUnsafeTemporaryAllocation(byteCount: Self.bufferSize, alignment: 8) { buffer in
                for i in 0..<count {
                    let slot = UnsafeMutableRawBufferPointer(
                        rebasing: all[(i * Self.bufferSize)..<((i + 1) * Self.bufferSize)])
                    if asleep, sleeping[i] {
                        values.appendAsleep()
                        continue
                    }
                    var length = lengths[i]
                    // Not open yet, or gone stale (device unbound): open or reopen and read again.
                    if fds[i] < 0 {
                        length = channels[i].input.read(into: slot, io: io)
                        fds[i] = channels[i].input.fd
                    } else if SysfsFile.isStale(length) {
                        length = channels[i].input.reopenAndRead(into: slot, io: io)
                        fds[i] = channels[i].input.fd
                    }
                    if let plan = plans[i] {
                        switch Self.parseNumber(length, slot, exponent: Int(plan.exponent)) {
                        case .failure(let f): values.appendFault(f)
                        case .success(let v):
                            if let reason = Self.outOfRange(v, plan.quantity, plan.plausible) {
                                values.appendFault(.other(reason))
                            } else {
                                values.append(v)
                            }
                        }
                    } else {
                        Self.read(
                            &channels[i], input: length, slot, io: io, buffer: buffer, witness: witnesses[i],
                            into: &values)
                    }
                }
            }
        }
        if !values.faults.isEmpty { failed = Array(values.faults.keys) } else if !failed.isEmpty { failed = [] }
        return values
    }

    /// Appends a channel's reading from its input as already read (`length` bytes in `slot`,
    /// or `-errno`); `offset`, `scale`, fault flags and an errno witness are read here, into
    /// `buffer`. `witness`: the index in `values` of the errno witness's reading of this poll.
    private static func read(
        _ channel: inout SysfsChannel, input length: Int, _ slot: UnsafeMutableRawBufferPointer,
        io: any SysfsIO, buffer: UnsafeMutableRawBufferPointer, witness: Int?, into values: inout SensorValues
    ) {
        if let blocked = channel.blocked { return values.appendFault(.other(blocked)) }
        let isRaw = channel.offset != nil || channel.scale != nil
        let raw: Double
        switch parseNumber(length, slot, exponent: isRaw ? 0 : channel.decimalExponent) {
        case .failure(let f): return values.appendFault(f)
        case .success(let v): raw = v
        }
        if channel.rejectsErrnoValues || channel.errnoWitness != nil, let code = printedErrno(raw) {
            if channel.rejectsErrnoValues {
                return values.appendFault("driver error \(code) printed as a value")
            }
            // A temperature just below 0 °C: an error only if the chip's humidity failed too.
            let humidityFailed: Bool
            if let witness {
                humidityFailed = values.value(at: witness) == nil
            } else {
                let humidity = readNumber(&channel.errnoWitness!, exponent: -3, io: io, buffer: buffer)
                humidityFailed = (try? humidity.get()).map { $0 < 0 } ?? true
            }
            if humidityFailed {
                return values.appendFault("driver error \(code) printed as a value (the humidity read failed too)")
            }
        }
        var value = raw
        if isRaw {
            var offset = 0.0, scale = 1.0
            if channel.offset != nil {
                switch readNumber(&channel.offset!, exponent: 0, io: io, buffer: buffer) {
                case .failure(let f): return values.appendFault(.other("offset: " + f.description))
                case .success(let v): offset = v
                }
            }
            if channel.scale != nil {
                switch readNumber(&channel.scale!, exponent: 0, io: io, buffer: buffer) {
                case .failure(let f): return values.appendFault(.other("scale: " + f.description))
                case .success(let v): scale = v
                }
            }
            value = (raw + offset) * scale
            // One rounding step, so 24380 m°C becomes exactly 24.38 °C.
            var power = 1.0
            for _ in 0..<abs(channel.decimalExponent) { power *= 10 }
            value = channel.decimalExponent < 0 ? value / power : value * power
        }
        if let reason = outOfRange(value, channel.info.quantity, channel.plausible) {
            return values.appendFault(.other(reason))
        }
        if channel.faultFlag != nil,
            case .success(let flag) = readNumber(&channel.faultFlag!, exponent: 0, io: io, buffer: buffer), flag != 0
        {
            let name = channel.faultFlag!.path.split(separator: "/").last.map(String.init) ?? "fault"
            return values.appendFault("sensor reports a fault (\(name) = 1)")
        }
        // The alarm files, read with the value (SPEC §16b); one that cannot be read counts
        // as not set: the value stands, and the alarm is missed, not made up.
        var alarms: HardwareAlarms = []
        for j in channel.alarmFiles.indices {
            if case .success(let flag) = readNumber(&channel.alarmFiles[j].file, exponent: 0, io: io, buffer: buffer),
                flag != 0
            {
                alarms.formUnion(channel.alarmFiles[j].alarm)
            }
        }
        values.append(value, alarms: alarms)
    }

    /// The errno in a value an sht3x driver printed in place of a reading (−1…−133 as the
    /// integer it printed, m°C or milli-%RH), or nil.
    private static func printedErrno(_ value: Double) -> Int? {
        let printed = value * 1000
        return printed == printed.rounded() && printed <= -1 && printed >= -133 ? Int(printed) : nil
    }

    /// Why a value cannot be real: below absolute zero (this includes the kernel's
    /// `THERMAL_TEMP_INVALID` of -274000 m°C), negative humidity or pressure, or a
    /// temperature outside the source's `plausible` range (SPEC §16).
    static func outOfRange(_ value: Double, _ quantity: Quantity, _ plausible: PlausibleRange) -> String? {
        if quantity == .temperature {
            if value <= -273.15 { return "out of range: \(value) \(quantity.unit)" }
            return plausible.admits(value) ? nil : "implausible value: \(NumberText.number(value)) \(quantity.unit)"
        }
        // Voltages and currents may be negative (a −12 V rail); a fan at 0 rpm has stopped.
        guard quantity == .humidity || quantity == .pressure else { return nil }
        return value < 0 ? "out of range: \(value) \(quantity.unit)" : nil
    }

    private static func readNumber(
        _ file: inout SysfsFile, exponent: Int, io: any SysfsIO, buffer: UnsafeMutableRawBufferPointer
    ) -> Result<Double, ReadFault> {
        parseNumber(file.read(into: buffer, io: io), buffer, exponent: exponent)
    }

    /// The number in the first `n` bytes of `buffer` (`n` < 0 is `-errno` from the read).
    private static func parseNumber(
        _ n: Int, _ buffer: UnsafeMutableRawBufferPointer, exponent: Int
    ) -> Result<Double, ReadFault> {
        if n == Int(GuardedSysfsIO.blockedResult) { return .failure(.other(HungFiles.reason)) }
        if n < 0 { return .failure(.system(errno: Int32(-n))) }
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
        if n == buffer.count { return .failure(.other("not a number: " + quoted(bytes))) }
        switch SysfsValueParser.parse(bytes, decimalExponent: exponent) {
        case .number(let v): return .success(v)
        case .empty: return .failure("empty")
        case .invalid: return .failure(.other("not a number: " + quoted(bytes)))
        }
    }

    /// The text as read, its line end and trailing spaces trimmed, quoted as
    /// ``DisplayText/quoted(_:cutAt:)`` quotes bytes, cut at 40 bytes.
    static func quoted(_ bytes: UnsafeRawBufferPointer) -> String {
        var trimmed = bytes[...]
        while let last = trimmed.last, last == 0x0A || last == 0x20 { trimmed = trimmed.dropLast() }
        return DisplayText.quoted(trimmed, cutAt: 40)
    }
}
