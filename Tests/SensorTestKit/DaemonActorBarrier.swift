import SensorRuntime

/// Returns once every job queued on the ``DaemonActor`` before the call has run: a task a
/// commit or a signal woke there has done what it does and waits again.
///
/// Only for showing that something did *not* happen (a loop not woken, a timer not
/// started); what does happen is waited for as its event (``EventCount``, a clock's
/// sleepers). The actor's executor runs jobs of one priority in the order they came.
public func daemonActorBarrier() async {
    await Task { @DaemonActor in }.value
}
