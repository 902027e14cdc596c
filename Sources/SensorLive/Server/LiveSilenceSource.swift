public import SensorCore

/// Where the stream's server reads the silences (SPEC §21) from: the journal in `run`
/// (SensorSystemd's reader, injected by the executable), a fixed list in tests.
///
/// Requirement: ``read()`` may block (a journal read); the server calls it on a thread of
/// its own, never on the daemon's actor.
public protocol LiveSilenceSource: Sendable {
    /// The silences known now; nil when they cannot be read (no access to the journal).
    func read() -> SilenceBook?
}

/// No silences: a daemon that cannot read them shows an empty list.
public struct NoLiveSilenceSource: LiveSilenceSource {
    /// No silences.
    public init() {}
    /// Always nil: nothing is read.
    public func read() -> SilenceBook? { nil }
}
