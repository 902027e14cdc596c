import SensorCore
import SensorRuntime

/// What `silence add` was asked for, checked (SPEC §21): matchers, the end, the comment.
///
/// Pure, with the time and the user given, so every argument error is unit-tested.
enum SilenceRequest {
    /// A request that cannot become a silence.
    enum Problem: Error, Hashable, CustomStringConvertible {
        /// A command line that does not say what is wanted (exit 64).
        case usage(String)
        /// A glob, duration or time that cannot be read (exit 78).
        case value(String)

        var description: String {
            switch self {
            case .usage(let m), .value(let m): return m
            }
        }
    }

    /// The matcher options, each a glob.
    static let matcherOptions = ["rule", "sensor", "host"]

    /// The silence `options` describe, starting at `now` (microseconds since the epoch),
    /// made by `user`, with the id `id`.
    static func silence(_ options: Options, now: UInt64, user: String, id: String) throws(Problem) -> Silence {
        var globs: [String: Glob] = [:]
        for name in matcherOptions {
            guard let text = options[name] else { continue }
            guard !text.isEmpty else {
                throw .value("--\(name): an empty glob matches nothing; leave the option out to match every \(name)")
            }
            do {
                globs[name] = try Glob(text)
            } catch {
                throw .value("--\(name): \(error)")
            }
        }
        guard !globs.isEmpty else {
            throw .usage("give at least one of --rule, --sensor, --host (a matcher left out matches everything)")
        }
        let ends: UInt64
        switch (options["for"], options["until"]) {
        case (nil, nil): throw .usage("give --for DURATION or --until TIME")
        case (.some, .some): throw .usage("give --for or --until, not both")
        case (let text?, nil):
            let duration: Duration
            do { duration = try DurationParser.parse(text) } catch { throw .value("--for: '\(text)': \(error)") }
            guard duration > .zero else { throw .value("--for: '\(text)' is not a positive duration") }
            let micros = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
            ends = now + UInt64(micros)
        case (nil, let text?):
            guard let seconds = until(text, now: now) else {
                throw .value(
                    "--until: cannot read '\(text)' as a time (2026-12-02T18:00:00Z, \"2026-12-02 18:00\", @SECONDS)")
            }
            guard seconds * 1e6 > Double(now) else {
                throw .value("--until: '\(text)' is not in the future")
            }
            // Year 5138: far enough for any silence, and a time every reader reads back.
            guard seconds < 1e11 else { throw .value("--until: '\(text)' is too far ahead") }
            ends = UInt64((seconds * 1e6).rounded())
        }
        return Silence(
            id: id, rule: globs["rule"], sensor: globs["sensor"], host: globs["host"], startsMicroseconds: now,
            endsMicroseconds: ends, comment: options["comment"] ?? "", by: user)
    }

    /// `--until`: RFC 3339, or a local date and time or `@SECONDS` as `history --since` reads
    /// them; not a duration, which `history` reads as a time ago (`--for` says that).
    private static func until(_ text: String, now: UInt64) -> Double? {
        if let t = RFC3339.parse(text) { return t }
        let bare = text.trimmingSpaces()
        guard HistorySince.duration(bare.hasPrefix("-") ? String(bare.dropFirst()) : bare) == nil else { return nil }
        return HistorySince.parse(text, now: Double(now) / 1e6)
    }
}
