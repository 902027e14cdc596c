/// A physical quantity sensorwatch reads, with the unit every value of it is kept in.
///
/// Readers convert kernel units (millidegrees, milli-percent, kPa) into these units before
/// a value enters the model, so rules and sinks never see raw kernel numbers.
public enum Quantity: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case temperature
    case humidity
    case pressure

    /// The unit values of this quantity are expressed in, as printed to users.
    public var unit: String {
        switch self {
        case .temperature: return "°C"
        case .humidity: return "%RH"
        case .pressure: return "hPa"
        }
    }

    public var description: String { rawValue }
}
