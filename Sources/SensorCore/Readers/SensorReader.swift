public import SensorRuntime

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
///   thread-safe, but are never called concurrently with themselves — except after
///   ``isolateBlockedRead(now:)`` returned true, when the next call may come from another
///   thread while the blocked one is still running.
/// - `isolateBlockedRead(now:)` is how one blocked file costs one sensor, not its source
///   (SPEC §8): a reader that can tell which file a call is stuck in gives that call up
///   and reads the file as a fault from then on, until the stuck read returns.
public protocol SensorReader: Sendable {
    /// The `SOURCE` part of the ids this reader produces (`thermal`, `hwmon`, `iio`, `sim`).
    var source: String { get }

    /// Finds the sensors present now (after `include`/`exclude`), in id order.
    func discover() -> [SensorInfo]

    /// Reads every discovered sensor, for the tick at `time`, aligned with the last
    /// `discover()`.
    func poll(at time: Timestamp) -> [SensorValues]

    /// Called from another thread, repeatedly (about twice a second), while `discover()` or
    /// `poll(at:)` runs long. Returns true when that call has been blocked in one file for
    /// long enough to be given up: its result must then be dropped, and the caller goes on
    /// with new calls (from another thread), in which that file reads as a fault
    /// (`read blocked for 1s`) until its read returns. `now` is the run time. No default:
    /// a reader that wraps another must pass this on, or the wrapped one's isolation is lost.
    func isolateBlockedRead(now: Timestamp) -> Bool

    /// What the last `discover()` had to leave out and why, one line each (`PATH: read
    /// blocked for 1s; …`); empty when it listed everything it found. Asked on the thread
    /// that discovered, right after it.
    var leftOut: [String] { get }

    /// Whether the source's class directory lists other entries than at the last
    /// `discover()`: a device appeared or went (SPEC §20). Asked on the poll thread before
    /// each poll, so it must be cheap — one listing of one directory — and costs no wake-up
    /// of its own. A reader that wraps another must pass this on.
    func devicesChanged() -> Bool

    /// Called once when the source stops (SIGTERM, a reload that drops or changes it) or a
    /// one-shot command is done with it, from a thread other than the poll thread, which may
    /// still be in a call: lets a reader that holds something outside the process (a BMC's
    /// session, SPEC §23) give it back. It must not wait for a call in progress (a stalled
    /// BMC must not hold up SIGTERM): such a call gives it back when it returns. A reader
    /// that wraps another must pass this on.
    func close()
}

extension SensorReader {
    /// Readers without a class directory (scenarios, test doubles) never see one change.
    public func devicesChanged() -> Bool { false }

    /// Readers that hold only descriptors and memory have nothing to give back early.
    public func close() {}
}
