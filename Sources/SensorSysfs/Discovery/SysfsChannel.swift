import SensorConfig
import SensorCore

/// One sensor backed by sysfs files, and how its value is computed from them.
///
/// The value is `input × 10^decimalExponent` for processed attributes, or
/// `(raw + offset) × scale × 10^decimalExponent` for IIO raw channels (a missing offset is
/// 0, a missing scale 1). Readers build channels at discovery; ``SysfsSensorSet`` reads them.
struct SysfsChannel: Sendable {
    /// Id, label and quantity.
    var info: SensorInfo
    /// `temp`, `tempN_input`, `in_*_input` or `in_*_raw`.
    var input: SysfsFile
    /// IIO `_offset`, added before scaling; nil = 0.
    var offset: SysfsFile?
    /// IIO `_scale`; nil = 1.
    var scale: SysfsFile?
    /// hwmon `tempN_fault`; 1 means the value must not be trusted.
    var faultFlag: SysfsFile?
    /// hwmon `<ch>_alarm` and `<ch>_<limit>_alarm` (SPEC §16b), read after each value.
    var alarmFiles: [SysfsAlarmFile] = []
    /// For an hwmon sensor that is a thermal zone exported again by the kernel: that zone's
    /// id (`thermal:x86_pkg_temp`).
    var mirrors: SensorID?
    /// Powers of ten from the kernel's unit to ours (`-3` for milli, `1` for kPa → hPa).
    var decimalExponent: Int
    /// Small negative integers are driver errors printed as values (sht3x before 8dcc66ad379e):
    /// always for a humidity (a real one is never negative).
    var rejectsErrnoValues = false
    /// For an sht3x temperature: the same chip's humidity input. A real sht3x reads
    /// −0.001…−0.137 °C near freezing, so −1…−133 m°C is a driver error only when this
    /// humidity read failed in the same poll (SPEC §4); without one, the value stands.
    var errnoWitness: SysfsFile?
    /// Set when a file that names this sensor (its label) blocked at discovery: the
    /// sensor reads as this fault until that read returns and a discovery reads it.
    var blocked: String?
    /// The `power/runtime_status` files of its device's chain (``DevicePower``): while one
    /// says `suspended`, the channel is not read at all (SPEC §20). Empty with `wake: true`.
    var powerStatus: [String] = []
    /// Set by a scan that found its device suspended and so read none of its files (its
    /// label and limits are the last discovery's, or none): the set discovers again as soon
    /// as the device is seen awake.
    var discoveredAsleep = false
    /// The readings a temperature may give (the source's `plausible`); others are faults.
    var plausible = PlausibleRange.standard

    init(info: SensorInfo, input: String, decimalExponent: Int) {
        self.info = info
        self.input = SysfsFile(path: input)
        self.decimalExponent = decimalExponent
    }

    /// Every file this channel holds, for carrying descriptors over a rediscovery.
    var files: [SysfsFile] {
        [input] + [offset, scale, faultFlag, errnoWitness].compactMap { $0 } + alarmFiles.map(\.file)
    }

    /// The same channel with none of its files open: what a scan may carry over from the
    /// last discovery (the set keeps or closes the descriptors themselves, by path).
    var unopened: SysfsChannel {
        var copy = self
        copy.input = SysfsFile(path: input.path)
        copy.offset = offset.map { SysfsFile(path: $0.path) }
        copy.scale = scale.map { SysfsFile(path: $0.path) }
        copy.faultFlag = faultFlag.map { SysfsFile(path: $0.path) }
        copy.errnoWitness = errnoWitness.map { SysfsFile(path: $0.path) }
        for i in copy.alarmFiles.indices { copy.alarmFiles[i].file = SysfsFile(path: copy.alarmFiles[i].file.path) }
        return copy
    }

    /// Closes every descriptor.
    mutating func close(io: any SysfsIO) {
        input.close(io: io)
        offset?.close(io: io)
        scale?.close(io: io)
        faultFlag?.close(io: io)
        errnoWitness?.close(io: io)
        for i in alarmFiles.indices { alarmFiles[i].file.close(io: io) }
    }
}
