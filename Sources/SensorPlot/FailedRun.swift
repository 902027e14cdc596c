/// Successive failed reads of one sensor: from the first to the last, and when the sensor
/// read again (nil when it never did before the end).
struct FailedRun: Equatable, Sendable {
    /// Time of the first and of the last failed read, in seconds.
    var start: Double, last: Double
    /// How many failed reads.
    var count: Int
    /// Why the first one failed (`EIO`, `dropout`).
    var reason: String
    /// Time of the next successful reading.
    var recovered: Double?
}
