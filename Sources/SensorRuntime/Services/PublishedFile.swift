/// A file the daemon keeps up to date from the model, run by a ``PublishedFileService``: the
/// Prometheus textfile (``MetricsService``), the status file (``StatusService``).
///
/// Requirements, all on the daemon's actor, one call at a time: ``observe()`` reads exactly
/// what should wake the file (under observation tracking, re-armed after each wake-up: the
/// file shows the present, so coalesced wake-ups lose nothing); ``modelChanged()`` writes when
/// the file's own rule says so; ``timerWait`` is how long its timer waits from now (the first
/// write, and the backstop for a daemon whose polls stopped); ``timerFired()`` is that
/// timer's end; ``remove()`` is the stop. A file reports its own write failures.
@DaemonActor
package protocol PublishedFile: AnyObject {
    /// Reads what a change of should wake the file.
    func observe()
    /// The model changed (or the service started): writes if due. Returns true when the
    /// write moves the timer (its wait counts from the last write).
    func modelChanged() -> Bool
    /// How long the timer waits from now; nil: no timer (nothing to write).
    var timerWait: Duration? { get }
    /// The timer's wait is over.
    func timerFired()
    /// The service stops: the file goes, so a stopped daemon shows as absent, not frozen.
    func remove()
}
