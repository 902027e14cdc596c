import SensorConfig
import SensorCore
import SensorRuntime

/// Finds IIO devices and their temperature, humidity and pressure channels.
///
/// A channel is `in_<type>[<index>][_<modifier>]_input` (processed, preferred) or `_raw`
/// with optional `_offset` and `_scale`, looked up from the most specific name to the one
/// shared by the type (`in_temp0_scale`, then `in_temp_scale`). Its id is
/// `iio:<name>/<type><index>[_<modifier>]`, where `<name>` is the `name` attribute or else
/// the device directory name, made unique like hwmon chip names (by the resolved path of the
/// device it hangs under, so `iio:deviceN` numbers do not matter). Kernel units: m°C,
/// milli-percent RH, kilopascal (converted to hPa).
enum IIOScanner {
    private static let types: [(String, Quantity, Int)] = [
        ("humidityrelative", .humidity, -3),
        ("pressure", .pressure, 1),
        ("temp", .temperature, -3),
    ]

    /// (IIO devices have no runtime-suspend gate here: `previous` is not needed.)
    static func scan(
        _ configuration: SourceConfiguration, _ io: any SysfsIO, _ previous: [SysfsChannel]
    ) -> [SysfsChannel] {
        let root = configuration.root
        var dirs: [String] = []
        var chips: [SysfsNames.Chip] = []
        for entry in DirectoryListing.entries(root) where entry.hasPrefix("iio:device") {
            let dir = root + "/" + entry
            guard SysfsTree.isDirectory(dir) else { continue }
            let name = SysfsTree.text(dir + "/name", io: io)
            // As for hwmon chips: a device whose name blocks is left out until it answers.
            if name == nil, io.isBlocked(dir + "/name") { continue }
            dirs.append(dir)
            chips.append(
                SysfsNames.Chip(
                    name: name ?? entry,
                    // The bus device the IIO device hangs under, not `iio:deviceN` itself,
                    // whose number changes from boot to boot.
                    devicePath: SysfsTree.realPath(dir + "/.."),
                    index: SysfsNames.index(of: entry, after: "iio:device")))
        }
        var channels: [SysfsChannel] = []
        for (dir, name) in zip(dirs, SysfsNames.unique(chips)) {
            channels += self.channels(in: dir, deviceName: name)
        }
        return channels
    }

    private static func channels(in dir: String, deviceName: String) -> [SysfsChannel] {
        let files = Set(DirectoryListing.entries(dir))
        var result: [SysfsChannel] = []
        var seen: Set<String> = []
        for file in files.sorted() where file.hasPrefix("in_") {
            let isInput = file.hasSuffix("_input")
            guard isInput || file.hasSuffix("_raw") else { continue }
            let spec = String(file.dropFirst(3).dropLast(isInput ? 6 : 4))
            guard let (type, quantity, exponent, index, modifier) = parse(spec), !seen.contains(spec) else { continue }
            let input = "in_" + spec + "_input"
            let processed = files.contains(input)
            seen.insert(spec)
            let info = SensorInfo(
                id: SensorID(source: SourceKind.iio.idPrefix, name: deviceName + "/" + spec), quantity: quantity)
            var channel = SysfsChannel(
                info: info, input: dir + "/" + (processed ? input : "in_" + spec + "_raw"), decimalExponent: exponent)
            if !processed {
                let names = candidates(type: type, index: index, modifier: modifier)
                channel.offset = names.map { "in_" + $0 + "_offset" }.first(where: files.contains).map {
                    SysfsFile(path: dir + "/" + $0)
                }
                channel.scale = names.map { "in_" + $0 + "_scale" }.first(where: files.contains).map {
                    SysfsFile(path: dir + "/" + $0)
                }
            }
            result.append(channel)
        }
        return result
    }

    /// Splits `temp0_ambient` into its type, index and modifier; nil for other channels
    /// (voltages, differential pairs such as `temp0-temp1`).
    private static func parse(_ spec: String) -> (String, Quantity, Int, String, String)? {
        guard let (type, quantity, exponent) = types.first(where: { spec.hasPrefix($0.0) }) else { return nil }
        var rest = spec.dropFirst(type.count)
        let index = String(rest.prefix { $0.isASCII && $0.isNumber })
        rest = rest.dropFirst(index.count)
        var modifier = ""
        if !rest.isEmpty {
            guard rest.first == "_", rest.count > 1,
                rest.dropFirst().allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
            else { return nil }
            modifier = String(rest.dropFirst())
        }
        return (type, quantity, exponent, index, modifier)
    }

    /// Attribute stems from most specific to shared: `temp0_ambient`, `temp_ambient`, `temp0`, `temp`.
    private static func candidates(type: String, index: String, modifier: String) -> [String] {
        let mod = modifier.isEmpty ? "" : "_" + modifier
        var out: [String] = []
        for stem in [type + index + mod, type + mod, type + index, type] where !out.contains(stem) {
            out.append(stem)
        }
        return out
    }
}
