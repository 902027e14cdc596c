import SensorConfig
import SensorCore
import SensorRuntime

/// Finds hwmon chips and their `tempN_input` / `humidityN_input` attributes, and the fans,
/// voltages, power and current channels of SPEC §16a (`fanN_input` rpm, `inN_input` mV,
/// `powerN_input` µW — else `powerN_average` —, `currN_input` mA).
///
/// - The chip is named as lm-sensors names it (``HwmonChipName``: `coretemp-isa-0000`), from
///   `hwmonN/name`; old drivers keep `name` and every attribute in `hwmonN/device/`
///   (libsensors reads there too); a chip with neither, which lm-sensors skips, is named
///   after its directory (`hwmon4`).
/// - Chips lm-sensors would name alike are told apart by ``SysfsNames`` (`acpitz-acpi-0`,
///   `acpitz-acpi-0.1`), so a device that comes or goes renames no other chip.
/// - Indices may be sparse (nvme: temp1, 2, 3, 9); every `_input` present is a sensor.
/// - Labels come from `tempN_label` / `humidityN_label`; `tempN_fault` is checked per read,
///   and so are the alarm files (`tempN_crit_alarm`, `fanN_alarm`, …, SPEC §16b).
/// - Limits (`tempN_max`, `_crit`, … and their `_hyst`) are read here, never per poll.
/// - A chip whose device, or a parent of it, has `power/runtime_status` (``DevicePower``)
///   is not read while that says `suspended` (SPEC §20), unless the source says `wake: true`:
///   not at polls, and not at discovery either (its labels and limits are the last ones read
///   awake; only `name`, which the hwmon core answers without the driver, is read).
/// - A chip that re-exports thermal zones (``ThermalHwmonMirror``) is kept, each sensor
///   noting the zone it mirrors: a configuration with hwmon alone still sees those zones,
///   and ids do not depend on which other sources are configured.
enum HwmonScanner {
    private struct Chip {
        var dir: String
        var attributes: String
        var chip: SysfsNames.Chip
        /// The driver's `name` (nil when the chip has none).
        var driver: String?
    }

    /// A sensor of a chip, before its label and limit files are read.
    private struct Found {
        var file: String
        var stem: String
        var quantity: Quantity
        var exponent: Int
        var id: SensorID
        /// Its label's index in the chip's batch, when it has a label file.
        var label: Int?
        /// Positions in its quantity's limit files (``SysfsLimitFiles/hwmonFiles(stem:present:quantity:)``).
        var limitFiles: [Int]
        var firstLimit: Int
    }

    /// `previous`: the last discovery's channels, which a sleeping chip keeps (SPEC §20).
    static func scan(
        _ configuration: SourceConfiguration, _ io: any SysfsIO, _ previous: [SysfsChannel]
    ) -> [SysfsChannel] {
        let found = chips(configuration.root, io)
        let names = SysfsNames.unique(found.map(\.chip))
        var channels: [SysfsChannel] = []
        for (chip, name) in zip(found, names) {
            let driver = chip.driver ?? ""
            let mirror = ThermalHwmonMirror(devicePath: chip.chip.devicePath, chipName: driver, io: io)
            let power = configuration.wake ? [] : DevicePower.statusFiles(device: chip.chip.devicePath)
            let asleep = DevicePower.isSuspended(power, io: io)
            // A sleeping chip's labels and limits are not read (a read of them can resume it):
            // it keeps what the last discovery read while it was awake, or, asleep since the
            // start, has its sensors as its directory lists them, labels and limits once it wakes.
            let kept = asleep ? previous.filter { $0.input.path.hasPrefix(chip.attributes + "/") } : []
            var chipChannels =
                !kept.isEmpty
                ? kept
                : sensors(
                    in: chip.attributes, chipName: name, driver: driver, mirror: mirror,
                    admits: configuration.admits, reading: !asleep, io: io)
            for i in chipChannels.indices {
                chipChannels[i].powerStatus = power
                chipChannels[i].discoveredAsleep = asleep
            }
            channels += chipChannels
        }
        return channels
    }

    /// The chip names this project used before SPEC §4 named devices (the driver's `name`,
    /// `.1`, `.2` by device path), each with the chip's name now, for `check` (SPEC §20).
    static func renamedChips(root: String, io: any SysfsIO) -> [String: String] {
        let found = chips(root, io)
        let old = SysfsNames.unique(
            found.map { SysfsNames.Chip(name: $0.driver ?? "", devicePath: $0.chip.devicePath, index: $0.chip.index) })
        var renamed: [String: String] = [:]
        for (chip, (before, now)) in zip(found, zip(old, SysfsNames.unique(found.map(\.chip)))) where chip.driver != nil
        {
            renamed[before] = now
        }
        return renamed
    }

    private static func chips(_ root: String, _ io: any SysfsIO) -> [Chip] {
        let adapters = root + "/../i2c-adapter"
        var found: [Chip] = []
        for entry in DirectoryListing.entries(root) where entry.hasPrefix("hwmon") {
            let dir = root + "/" + entry
            guard SysfsTree.isDirectory(dir) else { continue }
            var attributes = dir
            var name = SysfsTree.text(dir + "/name", io: io)
            // A chip whose name blocks cannot be given its sensors' ids: it is left out
            // until the name answers (named after its directory, its ids would change then).
            if name == nil, io.isBlocked(dir + "/name") || io.isBlocked(dir + "/device/name") { continue }
            if name == nil, let old = SysfsTree.text(dir + "/device/name", io: io) {
                name = old
                attributes = dir + "/device"
            }
            let device = SysfsTree.realPath(dir + "/device")
            let full = name.map { HwmonChipName.name(prefix: $0, device: device, adapters: adapters, io: io) }
            let chip = SysfsNames.Chip(
                name: full ?? entry, devicePath: device, index: SysfsNames.index(of: entry, after: "hwmon"))
            found.append(Chip(dir: dir, attributes: attributes, chip: chip, driver: name))
        }
        return found
    }

    private static func sensors(
        in dir: String, chipName: String, driver: String, mirror: ThermalHwmonMirror?,
        admits: (SensorID) -> Bool, reading: Bool, io: any SysfsIO
    ) -> [SysfsChannel] {
        let files = DirectoryListing.entries(dir)
        let present = Set(files)
        // The labels and limit files of every admitted sensor, read in one batch for the chip:
        // one guarded call and one directory descriptor instead of an open, a read and a
        // close on an absolute path per file, each guarded, whose cost showed in discovery
        // of many chips (figures: bench/README.md, "Instructions behind the code's shortcuts").
        var batch = SysfsFileBatch(directory: dir)
        var found: [Found] = []
        for file in files {
            guard let (stem, quantity, exponent) = channel(file, present: present) else { continue }
            let id = SensorID(source: SourceKind.hwmon.idPrefix, name: chipName + "/" + stem)
            // An excluded sensor's label and limit files are not read at all.
            guard admits(id) else { continue }
            let label = reading && present.contains(stem + "_label") ? batch.add(stem, "_label") : nil
            let limitFiles = reading ? SysfsLimitFiles.hwmonFiles(stem: stem, present: present, quantity: quantity) : []
            let prefix = stem + "_"
            let first = batch.count
            for limit in limitFiles { _ = batch.add(prefix, SysfsLimitFiles.hwmonFile(limit, quantity: quantity)) }
            found.append(
                Found(
                    file: file, stem: stem, quantity: quantity, exponent: exponent, id: id, label: label,
                    limitFiles: limitFiles, firstLimit: first))
        }
        if reading { batch.read(io: io) }
        var channels: [SysfsChannel] = []
        channels.reserveCapacity(found.count)
        for sensor in found {
            let (stem, quantity) = (sensor.stem, sensor.quantity)
            let label = sensor.label.flatMap { i in
                // A label longer than its slot is read again whole.
                batch.isFull(i) ? SysfsTree.text(batch.path(i), io: io) : batch.result(i) { SysfsTree.text($0, $1) }
            }
            let limits = SysfsLimitFiles.hwmon(
                files: sensor.limitFiles, batch: batch, first: sensor.firstLimit, quantity: quantity,
                decimalExponent: sensor.exponent, io: io)
            let info = SensorInfo(id: sensor.id, label: label ?? "", quantity: quantity, limits: limits)
            var channel = SysfsChannel(info: info, input: dir + "/" + sensor.file, decimalExponent: sensor.exponent)
            if label == nil, reading { channel.blocked = SysfsTree.blocked(dir + "/" + stem + "_label", io: io) }
            channel.mirrors = mirror?.zone(of: stem)
            if present.contains(stem + "_fault") { channel.faultFlag = SysfsFile(path: dir + "/" + stem + "_fault") }
            channel.alarmFiles = SysfsAlarmFile.found(stem: stem, in: dir, present: present)
            if driver == "sht3x" || driver == "sts3x" {
                if quantity == .humidity {
                    channel.rejectsErrnoValues = true
                } else if present.contains("humidity" + stem.dropFirst(4) + "_input") {
                    channel.errnoWitness = SysfsFile(path: dir + "/humidity" + stem.dropFirst(4) + "_input")
                }
            }
            channels.append(channel)
        }
        return channels
    }

    /// The sensor a file of an hwmon directory is the input of: its stem (`temp1`), quantity
    /// and the power of ten from the file's unit to the quantity's; nil for other files.
    private static func channel(_ file: String, present: Set<String>) -> (String, Quantity, Int)? {
        let stem: Substring
        if file.hasSuffix("_input") {
            stem = file.dropLast("_input".count)
        } else if file.hasSuffix("_average"), file.hasPrefix("power"),
            !present.contains(file.dropLast("_average".count) + "_input")
        {
            stem = file.dropLast("_average".count)
        } else {
            return nil
        }
        for (prefix, quantity, exponent) in kinds where stem.hasPrefix(prefix) && isIndex(stem.dropFirst(prefix.count))
        {
            return (String(stem), quantity, exponent)
        }
        return nil
    }

    /// File prefixes of the channels read, with quantity and decimal exponent.
    private static let kinds: [(String, Quantity, Int)] = [
        ("temp", .temperature, -3), ("humidity", .humidity, -3), ("fan", .fan, 0),
        ("in", .voltage, -3), ("power", .power, -6), ("curr", .current, -3),
    ]

    private static func isIndex(_ s: Substring) -> Bool {
        !s.isEmpty && s.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
