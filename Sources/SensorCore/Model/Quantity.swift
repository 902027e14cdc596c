/// A physical quantity sensorwatch reads, with the unit every value of it is kept in.
///
/// Readers convert kernel units (millidegrees, milli-percent, kPa) into these units before
/// a value enters the model, so rules and sinks never see raw kernel numbers.
public enum Quantity: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case temperature
    case humidity
    case pressure
    /// A fan's speed (hwmon `fanN_input`), SPEC §16a.
    case fan
    /// A voltage rail (hwmon `inN_input`, mV in the kernel).
    case voltage
    /// Power (hwmon `powerN_input`, µW in the kernel).
    case power
    /// Current (hwmon `currN_input`, mA in the kernel).
    case current
    /// A discrete sensor's asserted states (a BMC's PSU, chassis intrusion, drive slot;
    /// SPEC §23): the value is the state bits as the BMC gives them, the states FreeIPMI
    /// calls warning or critical are alarms (§16b), and the states' words go in `state`.
    case state

    /// The unit values of this quantity are expressed in, as printed to users.
    public var unit: String {
        switch self {
        case .temperature: return "°C"
        case .humidity: return "%RH"
        case .pressure: return "hPa"
        case .fan: return "rpm"
        case .voltage: return "V"
        case .power: return "W"
        case .current: return "A"
        case .state: return ""
        }
    }

    /// The quantity's name as configurations and output write it (`temperature`, `fan`, …).
    public var description: String { rawValue }

    /// This quantity's bit in a set of quantities kept as a mask (``SensorList/quantityBits``):
    /// every commit asks whether its list holds a quantity the rules read, and hashing the
    /// raw value for a `Set` was a measurable share of a cycle (bench/README.md).
    public var bit: UInt8 {
        switch self {
        case .temperature: return 1
        case .humidity: return 2
        case .pressure: return 4
        case .fan: return 8
        case .voltage: return 16
        case .power: return 32
        case .current: return 64
        case .state: return 128
        }
    }
}
