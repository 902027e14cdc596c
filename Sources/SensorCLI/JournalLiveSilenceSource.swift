import SensorConfig
import SensorCore
import SensorLive
import SensorSystemd

/// The live stream's silences (SPEC §21, §22) from the local journal, as `status` reads
/// them; nil when the daemon may not read the journal (docs/decisions.md).
struct JournalLiveSilenceSource: LiveSilenceSource {
    /// Whose silence entries count (the configuration's `trust`).
    let trust: JournalTrust

    func read() -> SilenceBook? { try? JournalSilenceReader(trust: trust).read().book }
}
