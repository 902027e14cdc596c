/// A source of sensor readings: one kind of sensor under one root.
///
/// Contract for implementations:
/// - `discover()` finds the sensors present now. It is called at start, at least once a
///   minute and on reload; it never throws because of one bad sensor (a sensor whose files
///   are unreadable is still listed if it can be identified, and faults when polled).
/// - `poll(at:)` reads every sensor of the list the last `discover()` returned (discovering
///   first if it never ran) and returns its readings aligned with that list: one
///   ``SensorValues`` per instant, in time order, faults included, never a made-up value.
///   A real reader returns one, at `time`; a simulated one returns every instant of its
///   scenario not yet returned with time ≤ `time` (possibly none).
/// - Either may block (some drivers sleep in the kernel); callers run each reader on its own
///   thread, so a blocked reader stalls only its own source. Implementations are
///   thread-safe, but are never called concurrently with themselves.
public protocol SensorReader: Sendable {
    /// The `SOURCE` part of the ids this reader produces (`thermal`, `hwmon`, `iio`, `sim`).
    var source: String { get }

    /// Finds the sensors present now (after `include`/`exclude`), in id order.
    func discover() -> [SensorInfo]

    /// Reads every discovered sensor, for the tick at `time`, aligned with the last
    /// `discover()`.
    func poll(at time: Timestamp) -> [SensorValues]
}
