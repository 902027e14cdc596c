public import SensorRuntime

/// The silences `notify` knows (SPEC §21), shared by its lanes: read from the journal at
/// the start, then each silence entry a lane reads is recorded here, so every target sees
/// a silence from the moment one lane has read it.
@DaemonActor
public final class SilenceBoard {
    /// The silences as they are now.
    public private(set) var book: SilenceBook

    /// A board that starts with the silences of `book` (read from the journal at start).
    public init(_ book: SilenceBook = SilenceBook()) { self.book = book }

    /// Takes a silence entry a lane read (a new silence, or an expiry).
    public func record(_ silence: Silence) { book.record(silence) }
}
