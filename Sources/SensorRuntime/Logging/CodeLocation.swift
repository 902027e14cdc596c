/// Where in the source an entry was logged: the journal's `CODE_FILE`, `CODE_LINE`,
/// `CODE_FUNC`.
///
/// Swift cannot use sd-journal's location macro, so ``DaemonLog/log(_:_:kind:file:line:function:)``
/// captures `#fileID`, `#line` and `#function` as default arguments at the caller.
public struct CodeLocation: Hashable, Sendable {
    /// `CODE_FILE`, e.g. `SensorCore/Daemon.swift`.
    public var file: String
    /// `CODE_LINE`.
    public var line: Int
    /// `CODE_FUNC`.
    public var function: String

    /// The location of the caller, by default.
    public init(file: String = #fileID, line: Int = #line, function: String = #function) {
        self.file = file
        self.line = line
        self.function = function
    }
}
