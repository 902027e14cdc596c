import SensorConfig
public import SensorCore
import SensorRuntime

/// A BMC's SDR as sensorwatch's sensors (SPEC §23): ids `ipmi:<bmc>/<name>`, the SDR's
/// names as labels, quantities by the SDR's base unit (converted to ours), thresholds as
/// limits; discrete sensors as quantity `state`. Pure, so the rules are tested on tables.
public struct IPMISensorMap: Sendable, Hashable {
    /// One sensor read from the BMC.
    public struct Entry: Sendable, Hashable {
        /// Its record's position in the session's ``IPMISession/records(cachePath:)``.
        public var index: Int
        /// The sensor as the model knows it.
        public var info: SensorInfo
        /// How a reading becomes a value of ``info``'s quantity.
        public var unit: UInt8
        /// The record's event/reading type code (for FreeIPMI's interpretation).
        public var eventReadingType: UInt8
        /// The record's sensor type (for FreeIPMI's interpretation).
        public var sensorType: UInt8
    }

    /// The sensors, in id order.
    public var entries: [Entry]

    /// Maps `records` of the BMC named `bmc`, keeping those `admits` lets through.
    public init(bmc: String, records: [IPMIRecord], admits: (SensorID) -> Bool = { _ in true }) {
        var taken: [String: Int] = [:]
        var out: [Entry] = []
        // Two of one name: the second by record id gets `.1` (SPEC §23).
        let ordered = records.enumerated().sorted { $0.element.recordID < $1.element.recordID }
        for (index, record) in ordered {
            let quantity: Quantity
            if record.isThreshold {
                guard let q = Self.quantity(unit: record.baseUnit) else { continue }
                quantity = q
            } else {
                quantity = .state
            }
            let base = Self.idName(record.name)
            let seen = taken[base, default: 0]
            taken[base] = seen + 1
            let name = seen == 0 ? base : base + "." + String(seen)
            let id = SensorID(source: SourceKind.ipmi.idPrefix, name: bmc + "/" + name)
            guard admits(id) else { continue }
            let limits = record.isThreshold ? Self.limits(record, quantity: quantity) : .none
            out.append(
                Entry(
                    index: index, info: SensorInfo(id: id, label: record.name, quantity: quantity, limits: limits),
                    unit: record.baseUnit, eventReadingType: record.eventReadingType, sensorType: record.sensorType))
        }
        entries = out.sorted { $0.info.id < $1.info.id }
    }

    /// The `<name>` of an id: each character outside `[A-Za-z0-9._-]` as `_`.
    public static func idName(_ sdrName: String) -> String {
        let name = String(
            String.UnicodeScalarView(
                sdrName.unicodeScalars.map { c in
                    (c.isASCII
                        && (c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "." || c == "_" || c == "-"))
                        ? c : "_"
                }))
        return name.isEmpty ? "_" : name
    }

    /// The quantity of an IPMI base unit; nil for units sensorwatch does not read.
    public static func quantity(unit: UInt8) -> Quantity? {
        switch unit {
        case 1, 2, 3: return .temperature
        case 4: return .voltage
        case 5: return .current
        case 6: return .power
        case 18: return .fan
        default: return nil
        }
    }

    /// A reading in IPMI base unit `unit` in ours (°F and K to °C), to the millionth: FreeIPMI
    /// computes raw × m × 10^r in binary, so 220 × 0.06 comes out as 13.200000000000001 where
    /// the BMC means, and `ipmi-sensors` prints, 13.20.
    public static func convert(_ v: Double, unit: UInt8) -> Double {
        let ours: Double
        switch unit {
        case 2: ours = (v - 32) * 5 / 9
        case 3: ours = v - 273.15
        default: ours = v
        }
        return NumberText.rounded(ours, places: 6)
    }

    /// The SDR's thresholds as §16's limits: lower non-critical `min`, lower critical
    /// `lcrit`, upper non-critical `max`, upper critical `crit`, upper non-recoverable
    /// `emergency`; §16's plausibility applies. A lower non-recoverable threshold has no
    /// name of §16 and is left out. The SDR's hysteresis gives each its `_hyst`: an upper
    /// limit clears the positive-going hysteresis below it, a lower one the negative-going
    /// one above it.
    static func limits(_ record: IPMIRecord, quantity: Quantity) -> SensorLimits {
        let names = ["lnc": "min", "lc": "lcrit", "unc": "max", "uc": "crit", "unr": "emergency"]
        var found: [String: LimitPlausibility.Found] = [:]
        for (key, v) in record.thresholds {
            guard let name = names[key] else { continue }
            found[name] = .success(convert(v, unit: record.baseUnit))
            let lower = key.hasPrefix("l")
            let h = lower ? record.hysteresis.negative : record.hysteresis.positive
            if h > 0 { found[name + "_hyst"] = .success(convert(lower ? v + h : v - h, unit: record.baseUnit)) }
        }
        return found.isEmpty ? .none : LimitPlausibility.judge(found, quantity: quantity)
    }
}
