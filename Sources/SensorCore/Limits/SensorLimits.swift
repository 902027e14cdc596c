import SensorRuntime

/// The limits a driver declares for one sensor (SPEC §16), in the sensor's unit, and the
/// limit files that were present but ignored, with the reason.
///
/// Names are those of the SPEC: `max`, `crit`, `emergency`, `hot`, `passive`, `active`
/// (upper), `min`, `lcrit` (lower), and `L_hyst` for the clear point of limit `L` (an
/// absolute value). Only plausible limits are in ``values``; read at discovery, never per poll.
public struct SensorLimits: Hashable, Sendable {
    /// Plausible limits by name.
    public var values: [String: Double]
    /// Limit files present but ignored, by limit name, with the reason.
    public var ignored: [String: String]

    /// Limits as given (a scenario's are taken as they are).
    public init(values: [String: Double] = [:], ignored: [String: String] = [:]) {
        self.values = values
        self.ignored = ignored
    }

    /// No limits and nothing ignored.
    public static let none = SensorLimits()

    /// Whether there is neither a limit nor an ignored one.
    public var isEmpty: Bool { values.isEmpty && ignored.isEmpty }

    /// The limit named `name`, if the sensor has it (plausible).
    public subscript(_ name: String) -> Double? { values[name] }

    /// The limits a rule may name above a value, in the order they are shown.
    public static let upperNames = ["max", "crit", "emergency", "hot", "passive", "active", "cap"]
    /// The limits a rule may name below a value.
    public static let lowerNames = ["min", "lcrit"]

    /// Whether `name` (not a `_hyst`) lies below the values it guards.
    public static func isLower(_ name: String) -> Bool { lowerNames.contains(name) }

    /// Whether a rule may name `name` (`crit`, not `crit_hyst`).
    public static func isKnown(_ name: String) -> Bool { upperNames.contains(name) || lowerNames.contains(name) }

    /// `names` in display order: lower limits, then upper ones, each followed by its
    /// `_hyst`; unknown names last, sorted.
    public static func ordered(_ names: some Collection<String>) -> [String] {
        // Each name's rank looked up once, not twice per comparison (figures: bench/README.md, "Instructions behind the code's shortcuts").
        names.map { (rank[$0] ?? Int.max, $0) }
            .sorted { a, b in a.0 != b.0 ? a.0 < b.0 : a.1 < b.1 }
            .map(\.1)
    }

    /// The known names with their `_hyst`, in display order (what ``ordered(_:)`` puts
    /// first).
    public static let displayOrder = (lowerNames + upperNames).flatMap { [$0, $0 + "_hyst"] }

    /// Each known name's place in the display order (a thousand sensors' JSON sorts ten
    /// thousand names: built once).
    private static let rank = Dictionary(uniqueKeysWithValues: displayOrder.enumerated().map { ($1, $0) })

    /// The limits as `sensors` shows them after a value: `max 80 °C, crit 100 °C` (clear
    /// points left out); empty when there are none.
    public func summary(unit: String) -> String {
        Self.ordered(values.keys.filter { !$0.hasSuffix("_hyst") })
            .map { $0 + " " + NumberText.display(values[$0]!) + (unit.isEmpty ? "" : " " + unit) }
            .joined(separator: ", ")
    }
}
