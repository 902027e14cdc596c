/// How a derived sensor's value is computed from its two inputs (SPEC §11).
public enum DerivedFormula: Sendable, Hashable {
    /// The dew point (°C) of a temperature (°C) and a relative humidity (%RH) input.
    case dewpoint(temperature: SensorID, humidity: SensorID)
    /// `of − minus`, in the inputs' common quantity and unit.
    case difference(of: SensorID, minus: SensorID)

    /// The two inputs, in the order the formula names them.
    public var inputs: (SensorID, SensorID) {
        switch self {
        case .dewpoint(let t, let h): return (t, h)
        case .difference(let of, let minus): return (of, minus)
        }
    }

    /// Magnus constants after Sonntag (1990), as SPEC §11 fixes them.
    static let magnusB = 17.62
    static let magnusC = 243.12

    /// The dew point of `temperature` °C at `humidity` %RH, or why there is none.
    ///
    /// A humidity of 0 or less has no dew point (the logarithm diverges), nor has a
    /// temperature at or below −c, where the formula's denominator changes sign. Humidity
    /// above 100 %RH computes as is (a sensor's calibration can overshoot slightly).
    public static func dewPoint(temperature: Double, humidity: Double) -> Result<Double, ReadFault> {
        guard humidity > 0 else { return .failure(.other("no dew point at a humidity of \(humidity) %RH")) }
        guard temperature > -magnusC else {
            return .failure(.other("no dew point at a temperature of \(temperature) °C"))
        }
        let gamma = log(humidity / 100) + magnusB * temperature / (magnusC + temperature)
        return .success(magnusC * gamma / (magnusB - gamma))
    }
}

#if canImport(Glibc)
import Glibc
#endif
