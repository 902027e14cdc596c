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
        // Sized once: grown from empty, it was resized several times per sensor (11 M
        // instructions for bench/discovery.sh's 1000 sensors, callgrind).
        limits.values.reserveCapacity(found.count)
        let unit = quantity.unit
        let present = pairs.filter { found[$0.name] != nil }
        // Plausible or not: min = max = 0 is an unset chip, and its min must go too.
        let lowestUpper = present.compactMap { $0.isLower ? nil : try? found[$0.name]?.get() }.min()
        for (name, _, _) in present {
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
        var judged = present.count
        for (name, hystName, lowerLimit) in present {
            guard let hyst = found[hystName] else { continue }
            judged += 1
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
            let distance = lowerLimit ? h - limit : limit - h
            if distance < 0 || distance > maxHysteresisDistance {
                let side = lowerLimit ? "above" : "below"
                limits.ignored[hystName] = "\(number(h)) \(unit) is not within "
                    + "\(number(maxHysteresisDistance)) \(unit) \(side) \(name) (\(number(limit)) \(unit))"
            } else {
                limits.values[hystName] = h
            }
        }
        // A `_hyst` without its limit's file says nothing either (when every file found was
        // judged above, there is none: the usual case, and no pass over them all).
        guard judged < found.count else { return limits }
        for (name, _) in found where name.hasSuffix("_hyst") && limits.values[name] == nil && limits.ignored[name] == nil {
            limits.ignored[name] = "\(name.dropLast(5)) is absent"
        }
        return limits
    }

    /// Every limit name, upper ones first, with its `_hyst` name (made once, not per sensor)
    /// and whether it is a lower limit.
    private static let pairs = (SensorLimits.upperNames + SensorLimits.lowerNames).map {
        (name: $0, hyst: $0 + "_hyst", isLower: SensorLimits.isLower($0))
    }

    /// Why limit `name` with value `v` is not plausible, or nil when it is.
    static func implausible(_ v: Double, name: String, quantity: Quantity, lowestUpper: Double?) -> String? {
        // Made only for a limit that is not plausible: it was formatted for each of the ten
        // thousand limits of bench/discovery.sh (10 M instructions of 450 M, callgrind).
        var notPlausible: String { "\(number(v)) \(quantity.unit) is not a plausible limit" }
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
