/// The rules of SPEC §16 that decide which limits a driver's files hold really are limits.
///
/// Input is every limit or `_hyst` file found for one sensor, by limit name, as the number
/// it holds (in the sensor's unit) or the reason it could not be read; output the plausible
/// limits and, for every other one, why it was ignored. Pure, so the rules are tested on
/// tables of cases without files.
public enum LimitPlausibility {
    /// What a limit file gave: its number, or why there is none.
    public typealias Found = Result<Double, LimitFileFault>

    /// How far a `_hyst` may lie from its limit (SPEC §16): more is a misread register.
    public static let maxHysteresisDistance = 50.0

    /// Judges `found` for a sensor of `quantity`.
    public static func judge(_ found: [String: Found], quantity: Quantity) -> SensorLimits {
        var limits = SensorLimits()
        let unit = quantity.unit
        let numbers = found.compactMapValues { try? $0.get() }
        let upper = SensorLimits.upperNames.filter { found[$0] != nil }
        let lower = SensorLimits.lowerNames.filter { found[$0] != nil }
        // Plausible or not: min = max = 0 is an unset chip, and its min must go too.
        let lowestUpper = upper.compactMap { numbers[$0] }.min()
        for name in upper + lower {
            switch found[name]! {
            case .failure(let fault): limits.ignored[name] = fault.reason
            case .success(let v):
                if let reason = implausible(v, name: name, quantity: quantity, lowestUpper: lowestUpper) {
                    limits.ignored[name] = reason
                } else {
                    limits.values[name] = v
                }
            }
        }
        for name in upper + lower {
            let hystName = name + "_hyst"
            guard let hyst = found[hystName] else { continue }
            let h: Double
            switch hyst {
            case .failure(let fault):
                limits.ignored[hystName] = fault.reason
                continue
            case .success(let v): h = v
            }
            guard let limit = limits.values[name] else {
                limits.ignored[hystName] = "\(name) is ignored"
                continue
            }
            let lowerLimit = SensorLimits.isLower(name)
            let distance = lowerLimit ? h - limit : limit - h
            if distance < 0 || distance > maxHysteresisDistance {
                let side = lowerLimit ? "above" : "below"
                limits.ignored[hystName] = "\(number(h)) \(unit) is not within "
                    + "\(number(maxHysteresisDistance)) \(unit) \(side) \(name) (\(number(limit)) \(unit))"
            } else {
                limits.values[hystName] = h
            }
        }
        // A `_hyst` without its limit's file says nothing either.
        for (name, _) in found where name.hasSuffix("_hyst") && limits.values[name] == nil && limits.ignored[name] == nil {
            limits.ignored[name] = "\(name.dropLast(5)) is absent"
        }
        return limits
    }

    /// Why limit `name` with value `v` is not plausible, or nil when it is.
    static func implausible(_ v: Double, name: String, quantity: Quantity, lowestUpper: Double?) -> String? {
        let notPlausible = "\(number(v)) \(quantity.unit) is not a plausible limit"
        let isTemperature = quantity == .temperature
        if SensorLimits.isLower(name) {
            if isTemperature, v <= -273.15 { return notPlausible }
            // An unset fan register: a fan at 0 rpm is stopped, never "below its minimum".
            if quantity == .fan, name == "min", v == 0 { return notPlausible }
            if let top = lowestUpper, v >= top {
                return "\(number(v)) \(quantity.unit) is not below the upper limit (\(number(top)) \(quantity.unit))"
            }
            return nil
        }
        if v <= 0 { return notPlausible }
        if isTemperature, v >= 250 { return notPlausible }
        return nil
    }

    /// A limit as people read it: at most three decimals, no trailing zeros.
    static func number(_ v: Double) -> String {
        EventFormatter.number((v * 1000).rounded() / 1000)
    }
}
