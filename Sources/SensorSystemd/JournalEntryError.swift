import SensorCore
import SensorRuntime

/// Why a journal entry is not one sensorwatch wrote as it writes them: which field, what it
/// held, what is wrong with it. Any user can write such fields, so the value is shown escaped
/// and cut short.
public struct JournalEntryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the field.
    public enum Problem: Hashable, Sendable {
        /// The entry lacks a field it cannot do without.
        case missing
        /// Not a number (`SENSOR_VALUE=warm`), or not a finite one.
        case notANumber
        /// A number beyond what any reading, threshold or window is (``JournalEntryDecoder/largestNumber``),
        /// or a negative window.
        case outOfRange
        /// A word the field does not take (`ALERT_STATE=burning`, `ALERT_ALARM=yes`).
        case unknownValue
        /// Not an RFC 3339 time at or after the epoch (`SILENCE_ENDS`).
        case notATime
        /// Not a glob (`SILENCE_RULE=[`): the pattern's own error.
        case notAGlob(String)
    }

    /// The field's name, e.g. `SENSOR_VALUE`.
    public var field: String
    /// What it held; nil when it is missing.
    public var value: String?
    /// What is wrong.
    public var problem: Problem

    /// The longest part of a value the description quotes.
    static let quotedLength = 40

    /// An error of `field`, which held `value`.
    public init(field: String, value: String?, problem: Problem) {
        self.field = field
        self.value = value
        self.problem = problem
    }

    /// E.g. `SENSOR_VALUE=warm: not a number`, `ALERT_RULE: missing`.
    public var description: String {
        var quoted = ""
        if let value {
            let shown = DisplayText.escaped(String(value.prefix(Self.quotedLength)))
            quoted = "=" + shown + (value.count > Self.quotedLength ? "…" : "")
        }
        let words: String
        switch problem {
        case .missing: words = "missing"
        case .notANumber: words = "not a number"
        case .outOfRange: words = "out of range"
        case .unknownValue: words = "not a value the field takes"
        case .notATime: words = "not an RFC 3339 time"
        case .notAGlob(let why): words = "not a glob: " + why
        }
        return field + quoted + ": " + words
    }
}
