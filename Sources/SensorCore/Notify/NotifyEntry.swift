/// One alert entry a notification lane reads from a journal.
public struct NotifyEntry: Sendable, Hashable {
    /// The event; nil for an entry with sensorwatch's alert MESSAGE_ID that is not a
    /// readable event (hand-written, damaged) or that the daemon did not write
    /// (``JournalTrust``): skipped, never delivered.
    public var event: NotifyEvent?
    /// The entry's sd-journal cursor: the lane's position once it is done with the entry.
    public var cursor: String

    public init(event: NotifyEvent?, cursor: String) {
        self.event = event
        self.cursor = cursor
    }
}
