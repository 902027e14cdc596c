/// The one service behind every file the daemon publishes (``PublishedFile``): the metrics
/// textfile and the status file are two instances of it.
///
/// Two loops in one task group: one follows the model with re-armed one-shot
/// `withObservationTracking` (``nextChange(of:alreadyChanged:signal:)``) and lets the file
/// write at each wake-up, so a write rides on the poll that brought the change and wakes no
/// thread of its own; the other is the file's timer, through the injected clock, moved when
/// a write says so. Cancelled (a clean stop), it removes the file.
@DaemonActor
package final class PublishedFileService {
    // The file owns this service: a strong reference back would keep both alive for ever.
    private unowned let file: any PublishedFile
    private let clock: any RunClock
    /// The waits in progress, ended early by a refresh (a reload) or a write that moves the timer.
    private var modelWaking: ChangeSignal?
    private var timerWaking: ChangeSignal?
    private var refreshed = false
    /// How many times the model woke the file (tests wait for it).
    package let modelWakes = EventCount()
    /// How many times the file has armed its observation of the model: once it has, a commit
    /// wakes it (the service has started).
    package let armed = EventCount()

    /// - Parameter clock: the injected clock, which the file's timer sleeps on.
    package init(file: any PublishedFile, clock: any RunClock) {
        self.file = file
        self.clock = clock
    }

    /// Runs until cancelled, then removes the file.
    package func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.followModel() }
            group.addTask { await self.runTimer() }
            await group.waitForAll()
        }
        file.remove()
    }

    /// The file's rules changed (a reload): what it observes and its timer start over.
    package func refresh() {
        refreshed = true
        modelWaking?.fire()
        timerWaking?.fire()
    }

    private func followModel() async {
        while !Task.isCancelled {
            let signal = ChangeSignal()
            modelWaking = signal
            if file.modelChanged() { timerWaking?.fire() }
            await nextChange(of: { [file] in file.observe() }, signal: signal, armed: armed)
            if !refreshed, !Task.isCancelled { modelWakes.increment() }
            refreshed = false
        }
    }

    private func runTimer() async {
        while !Task.isCancelled {
            let signal = ChangeSignal()
            timerWaking = signal
            guard let wait = file.timerWait else {
                await untilSignalledOrCancelled(signal)
                continue
            }
            let clock = self.clock
            if wait <= .zero {
                file.timerFired()
            } else if await untilSignalled(signal, or: { (try? await clock.sleep(for: wait)) != nil }) {
                file.timerFired()
            }
        }
    }
}
