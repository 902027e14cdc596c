/// Where in the source an entry was sent from: the journal's `CODE_FILE`, `CODE_LINE`, `CODE_FUNC`.
///
/// Swift cannot use sd-journal's location macro, so callers capture `#fileID`, `#line` and
/// `#function` as default arguments and pass them down to here.
public struct JournalCodeLocation: Hashable, Sendable {
    /// `CODE_FILE`, e.g. `SensorSystemd/JournalAlertSink.swift`.
    public var file: String
    /// `CODE_LINE`.
    public var line: Int
    /// `CODE_FUNC`.
    public var function: String

    public init(file: String = #fileID, line: Int = #line, function: String = #function) {
        self.file = file
        self.line = line
        self.function = function
    }
}
