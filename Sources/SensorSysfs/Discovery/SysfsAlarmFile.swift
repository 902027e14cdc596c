import SensorCore

/// One hwmon alarm file of a channel (SPEC §16b): `<ch>_alarm` or `<ch>_<limit>_alarm`,
/// found at discovery, kept open and read with every poll of the channel's value.
struct SysfsAlarmFile: Sendable {
    /// The file.
    var file: SysfsFile
    /// The alarm it reports (`crit` for `temp1_crit_alarm`, `alarm` for `fan2_alarm`).
    var alarm: HardwareAlarms

    /// The alarm files of channel `stem` among a chip directory's `present` files, in
    /// ``HardwareAlarms/names`` order.
    static func found(stem: String, in dir: String, present: Set<String>) -> [SysfsAlarmFile] {
        HardwareAlarms.names.compactMap { name in
            let file = stem + (name == "alarm" ? "" : "_" + name) + "_alarm"
            guard present.contains(file), let alarm = HardwareAlarms(name: name) else { return nil }
            return SysfsAlarmFile(file: SysfsFile(path: dir + "/" + file), alarm: alarm)
        }
    }
}
