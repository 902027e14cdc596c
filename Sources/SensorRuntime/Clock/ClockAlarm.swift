/// One thread's blocking wait on a ``RunClock``: until a deadline, or until rung.
///
/// One-shot, like a kernel timer: `arm(after:)` sets (or replaces) the one expiry and
/// `disarm()` cancels it, both from any thread and without waking the waiter; ``wait()``
/// returns at the expiry. ``ring()`` is for stopping: it ends the wait in progress and
/// every later one at once, for good. Only one thread waits on an alarm.
public protocol ClockAlarm: Sendable {
    /// Expires once, `after` from now (replacing an earlier arming).
    func arm(after: Duration)
    /// Cancels the armed expiry, if any.
    func disarm()
    /// Blocks the calling thread until the armed expiry (at once when it has passed), or
    /// until ``ring()``. Unarmed, it blocks until armed and expired, or rung.
    func wait()
    /// Blocks the calling thread for `duration`, or until ``ring()``: `arm` and `wait` in
    /// one. A poll thread between polls sleeps so (a test's clock counts it as asleep).
    func sleep(for duration: Duration)
    /// Ends the current and every later wait at once (used when stopping).
    func ring()
}
