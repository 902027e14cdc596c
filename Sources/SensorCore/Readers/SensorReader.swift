/// A source of sensor readings: one kind of sensor under one root.
///
/// Contract for implementations:
/// - `discover()` finds the sensors present now. It is called at start, at least once a
///   minute and on reload; it never throws because of one bad sensor (a sensor whose files
///   are unreadable is still listed if it can be identified, and faults when polled).
/// - `poll(at:)` reads every discovered sensor once and returns one sample per read attempt,
///   faults included (`Sample.fault`), never a made-up value. Samples carry the time they
///   stand for: `time` for a real reader, the scenario's own times for a simulated one (all
///   not yet returned with time ≤ `time`), in time order.
/// - `pollValues(at:)` may do the same poll in compact form: one reading per sensor of the
///   list the last `discover()` returned, in that order, all at `time`. Readers without such
///   a form keep the default (nil), and callers then use `poll(at:)`.
/// - Any of them may block (some drivers sleep in the kernel); callers run each reader on its own
///   thread, so a blocked reader stalls only its own source. Implementations are
///   thread-safe, but are never called concurrently with themselves.
public protocol SensorReader: Sendable {
    /// The `SOURCE` part of the ids this reader produces (`thermal`, `hwmon`, `iio`, `sim`).
    var source: String { get }

    /// Finds the sensors present now (after `include`/`exclude`), in id order.
    func discover() -> [SensorInfo]

    /// Reads every discovered sensor once, for the tick at `time`.
    func poll(at time: Timestamp) -> [Sample]

    /// Reads every discovered sensor once, aligned with the last `discover()`; nil if this
    /// reader has no compact form or cannot align its readings now.
    func pollValues(at time: Timestamp) -> SensorValues?
}

extension SensorReader {
    /// No compact form: callers use `poll(at:)`.
    public func pollValues(at time: Timestamp) -> SensorValues? { nil }
}
