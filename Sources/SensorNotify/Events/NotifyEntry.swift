public import SensorCore

/// One alert (or silence) entry a notification lane reads from a journal.
public struct NotifyEntry: Sendable, Hashable {
    /// The event; nil for an entry with sensorwatch's alert MESSAGE_ID that is not a
    /// readable event (hand-written, damaged) or that the daemon did not write
    /// (``JournalTrust``): skipped, never delivered.
    public var event: NotifyEvent?
    /// The entry's sd-journal cursor: the lane's position once it is done with the entry.
    public var cursor: String
    /// A trusted silence entry (SPEC §21) instead of an event; nil for alert entries.
    public var silence: Silence?

    /// An entry of the given fields; a nil `event` is skipped, never delivered.
    public init(event: NotifyEvent?, cursor: String, silence: Silence? = nil) {
        self.event = event
        self.cursor = cursor
        self.silence = silence
    }
}
