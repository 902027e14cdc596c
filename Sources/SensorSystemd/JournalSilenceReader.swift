import CSystemd
public import SensorConfig
public import SensorCore
public import SensorRuntime

/// Reads every silence entry back from the journal (SPEC §21), oldest first, so that folding
/// them into a ``SilenceBook`` leaves each silence as its newest entry says.
public struct JournalSilenceReader: Sendable {
    /// One silence entry and when it was written.
    public struct Record: Sendable, Hashable {
        /// The entry's realtime timestamp, microseconds since the Unix epoch.
        public var realtimeMicroseconds: UInt64
        /// `_HOSTNAME`: the machine whose journal it came from.
        public var host: String
        /// The silence as this entry states it.
        public var silence: Silence

        /// A record of the given fields.
        public init(realtimeMicroseconds: UInt64, host: String, silence: Silence) {
            self.realtimeMicroseconds = realtimeMicroseconds
            self.host = host
            self.silence = silence
        }
    }

    /// What a read found.
    public struct Result: Sendable {
        /// The trusted, readable entries, oldest first.
        public var records: [Record]
        /// Silence entries skipped because their trusted fields say someone else wrote them.
        public var untrusted: Int

        /// The silences as they are now.
        public var book: SilenceBook { SilenceBook(records.map(\.silence)) }
    }

    private let sources: [JournalHistoryReader.Source]
    private let trust: JournalTrust

    /// - Parameters:
    ///   - sources: the journals to read; none reads the local machine's journals.
    ///   - trust: whose silence entries count (the configuration's `trust`, SPEC §17).
    public init(sources: [JournalHistoryReader.Source] = [], trust: JournalTrust = .daemon) {
        self.sources = sources.isEmpty ? [.local] : sources
        self.trust = trust
    }

    /// Every silence entry of every source, oldest first (ties keep their read order).
    public func read() throws(SystemError) -> Result {
        var records: [Record] = []
        var untrusted = 0
        for source in sources {
            var check = JournalTrustCheck(trust: trust, source: source)
            try JournalHistoryReader.entries(of: source, matching: [JournalSilenceEntry.match]) { j, usec in
                switch JournalSilenceEntry.read(j, trust: &check) {
                case .silence(let silence, let host):
                    records.append(Record(realtimeMicroseconds: usec, host: host, silence: silence))
                case .untrusted: untrusted += 1
                case .unreadable: break
                }
            }
        }
        return Result(
            records: records.sorted { $0.realtimeMicroseconds < $1.realtimeMicroseconds }, untrusted: untrusted)
    }
}
