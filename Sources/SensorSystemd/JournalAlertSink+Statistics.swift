extension JournalAlertSink {
    /// Counters of a `JournalAlertSink`, for `STATUS=` and tests.
    public struct Statistics: Hashable, Sendable {
        /// Entries the journal accepted.
        public var sent = 0
        /// Sends that returned a negative errno (each entry then went to the fallback).
        public var sendFailures = 0
        /// Entries written to the fallback stream instead of the journal.
        public var fallbackWrites = 0
        /// The errno of the last failed send, if any.
        public var lastError: Int32?

        /// All counters at zero.
        public init() {}
    }
}
