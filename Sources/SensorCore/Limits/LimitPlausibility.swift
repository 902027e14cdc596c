import SensorRuntime
/// The rules of SPEC §16 that decide which limits a driver's files hold really are limits.
///
/// Input is every limit or `_hyst` file found for one sensor, by limit name, as the number
/// it holds (in the sensor's unit) or the reason it could not be read; output the plausible
/// limits and, for every other one, why it was ignored. Pure, so the rules are tested on
/// tables of cases without files.
public enum LimitPlausibility {
    /// What a limit file gave: its number, or why there is none.
    public typealias Found = Result<Double, ReadFault>

    /// How far a `_hyst` may lie from its limit (SPEC §16): more is a misread register.
    public static let maxHysteresisDistance = 50.0

    /// Judges `found` for a sensor of `quantity`.
    public static func judge(_ found: [String: Found], quantity: Quantity) -> SensorLimits {
        var files = Files()
        for (name, result) in found { files.set(name, result) }
        return judge(files, quantity: quantity)
    }

    /// The limit files found for one sensor: each known limit and its `_hyst` in a slot of
    /// its own (``slot(of:)``), any other name aside.
    ///
    /// Slots, not a dictionary by name: a dictionary hashed each name for each of judge's
    /// lookups, a third of judging's cost (figures: bench/README.md, "Instructions behind the code's shortcuts").
    package struct Files {
        /// By slot: limit `pairs[i]` at `2 i`, its `_hyst` at `2 i + 1`.
        private(set) var slots: [Found?] = Array(repeating: nil, count: 2 * LimitPlausibility.pairs.count)
        /// Files whose name is no known limit or `_hyst`.
        private(set) var others: [(name: String, found: Found)] = []
        /// How many files there are.
        private(set) var count = 0

        package init() {}

        /// Adds the file of limit `name` (`crit`, `crit_hyst`).
        mutating func set(_ name: String, _ found: Found) {
            if let slot = LimitPlausibility.slot(of: name) {
                set(slot: slot, found)
            } else {
                others.append((name, found))
                count += 1
            }
        }

        /// Adds the file of slot `slot` (``slot(of:)``).
        package mutating func set(slot: Int, _ found: Found) {
            if slots[slot] == nil { count += 1 }
            slots[slot] = found
        }
    }

    /// The slot of limit file `name` in ``Files``, nil for a name that is no known limit or
    /// its `_hyst`.
    package static func slot(of name: String) -> Int? { slotIndex[name] }

    private static let slotIndex = Dictionary(
        uniqueKeysWithValues: pairs.enumerated().flatMap { i, pair in
            [(pair.name, 2 * i), (pair.hyst, 2 * i + 1)]
        })

    /// Judges `found` for a sensor of `quantity`.
    package static func judge(_ found: Files, quantity: Quantity) -> SensorLimits {
        var limits = SensorLimits()
        // Sized once: grown from empty, it was resized several times per sensor
        // (figures: bench/README.md, "Instructions behind the code's shortcuts").
        limits.values.reserveCapacity(found.count)
        let unit = quantity.unit
        // Plausible or not: min = max = 0 is an unset chip, and its min must go too.
        var lowestUpper: Double?
        for (i, pair) in pairs.enumerated() where !pair.isLower {
            if case .success(let v)? = found.slots[2 * i] { lowestUpper = min(lowestUpper ?? v, v) }
        }
        for (i, pair) in pairs.enumerated() {
            let (name, hystName) = (pair.name, pair.hyst)
            let hyst = found.slots[2 * i + 1]
            guard let result = found.slots[2 * i] else {
                // A `_hyst` without its limit's file says nothing either.
                if hyst != nil { limits.ignored[hystName] = "\(name) is absent" }
                continue
            }
            var limit: Double?
            switch result {
            case .failure(let fault): limits.ignored[name] = fault.description
            case .success(let v):
                if let reason = implausible(v, name: name, quantity: quantity, lowestUpper: lowestUpper) {
                    limits.ignored[name] = reason
                } else {
                    limits.values[name] = v
                    limit = v
                }
            }
            guard let hyst else { continue }
            let h: Double
            switch hyst {
            case .failure(let fault):
                limits.ignored[hystName] = fault.description
                continue
            case .success(let v): h = v
            }
            guard let limit else {
                limits.ignored[hystName] = "\(name) is ignored"
                continue
            }
            let distance = pair.isLower ? h - limit : limit - h
            if distance < 0 || distance > maxHysteresisDistance {
                let side = pair.isLower ? "above" : "below"
                limits.ignored[hystName] =
                    "\(NumberText.display(h)) \(unit) is not within "
                    + "\(NumberText.display(maxHysteresisDistance)) \(unit) \(side) \(name) (\(NumberText.display(limit)) \(unit))"
            } else {
                limits.values[hystName] = h
            }
        }
        for (name, _) in found.others where name.hasSuffix("_hyst") {
            limits.ignored[name] = "\(name.dropLast(5)) is absent"
        }
        return limits
    }

    /// A limit name with its `_hyst` name and whether it is a lower limit.
    typealias Pair = (name: String, hyst: String, isLower: Bool)

    /// Every limit name, upper ones first, with its `_hyst` name (made once, not per sensor)
    /// and whether it is a lower limit.
    private static let pairs: [Pair] = (SensorLimits.upperNames + SensorLimits.lowerNames).map {
        (name: $0, hyst: $0 + "_hyst", isLower: SensorLimits.isLower($0))
    }

    /// Why limit `name` with value `v` is not plausible, or nil when it is.
    package static func implausible(_ v: Double, name: String, quantity: Quantity, lowestUpper: Double?) -> String? {
        // Made only for a limit that is not plausible: formatting it for every limit showed
        // in discovery (figures: bench/README.md, "Instructions behind the code's shortcuts").
        var notPlausible: String { "\(NumberText.display(v)) \(quantity.unit) is not a plausible limit" }
        let isTemperature = quantity == .temperature
        if SensorLimits.isLower(name) {
            if isTemperature, v <= -273.15 { return notPlausible }
            // An unset fan register: a fan at 0 rpm is stopped, never "below its minimum".
            if quantity == .fan, name == "min", v == 0 { return notPlausible }
            if let top = lowestUpper, v >= top {
                return
                    "\(NumberText.display(v)) \(quantity.unit) is not below the upper limit (\(NumberText.display(top)) \(quantity.unit))"
            }
            return nil
        }
        if v <= 0 { return notPlausible }
        if isTemperature, v >= 250 { return notPlausible }
        return nil
    }
}
