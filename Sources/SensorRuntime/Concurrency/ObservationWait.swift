import Observation

/// Suspends until a property that `read` touches changes, or the task is cancelled.
///
/// One-shot `withObservationTracking`, armed anew on each call: `onChange` runs in the
/// property's `willSet`, so it only wakes the caller, which reads after the change is done.
/// `alreadyChanged` is checked after arming, so a change that happened between the
/// caller's last read and the arming is not waited for. `signal` can be fired by others to
/// wake the wait early (a loop whose observed set changes). `armed` counts each arming, the
/// event a test waits for before it commits.
@DaemonActor
package func nextChange(
    of read: () -> Void, alreadyChanged: () -> Bool = { false }, signal: ChangeSignal = ChangeSignal(),
    armed: EventCount? = nil
) async {
    withObservationTracking(read) { signal.fire() }
    if alreadyChanged() { signal.fire() }
    armed?.increment()
    await untilSignalledOrCancelled(signal)
}
