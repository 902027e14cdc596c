import Dispatch
import Synchronization

/// Polls one source on its own dispatch queue at its interval and streams the cycles.
///
/// A reader may block in the kernel (a stuck hwmon driver, a FIFO in a test tree): that
/// stalls only this poller. Ticks that come while a poll is still running are skipped and
/// counted, so a slow source never queues up work. Rediscovery runs on the same queue, at
/// least once a minute and when asked.
final class SourcePoller: Sendable {
    let reader: any SensorReader
    let interval: Duration
    private let queue: DispatchQueue
    private let state = Mutex<State>(State())
    private let continuation: AsyncStream<PollCycle>.Continuation
    /// The cycles this poller produces, in order.
    let cycles: AsyncStream<PollCycle>

    private struct State {
        var busy = false
        var sensors: [SensorInfo] = []
        /// Grows when the discovered list changes (`PollCycle.discovery`).
        var discovery: UInt64 = 0
        var lastDiscovery: Timestamp?
        var rediscover = true
        var skipped = 0
        var stopped = false
    }

    /// How often a source is rediscovered at the least.
    static let discoveryInterval: Duration = .seconds(60)

    init(reader: any SensorReader, interval: Duration) {
        self.reader = reader
        self.interval = interval
        self.queue = DispatchQueue(label: "sensorwatch.source.\(reader.source)")
        (cycles, continuation) = AsyncStream.makeStream(of: PollCycle.self, bufferingPolicy: .unbounded)
    }

    /// Discovers synchronously (before READY) and returns the sensors found.
    func discoverNow(at time: Timestamp) -> [SensorInfo] {
        let sensors = reader.discover()
        state.withLock {
            if $0.discovery == 0 || $0.sensors != sensors { $0.discovery += 1 }
            $0.sensors = sensors
            $0.lastDiscovery = time
            $0.rediscover = false
        }
        return sensors
    }

    /// The sensors last discovered.
    var sensors: [SensorInfo] { state.withLock { $0.sensors } }

    /// Ticks skipped because the previous poll had not finished.
    var skipped: Int { state.withLock { $0.skipped } }

    /// Asks for a rediscovery before the next poll.
    func requestDiscovery() { state.withLock { $0.rediscover = true } }

    /// Starts a poll for the tick at `time`, unless one is still running.
    func tick(at time: Timestamp) {
        let start = state.withLock { s -> Bool in
            if s.busy || s.stopped {
                s.skipped += 1
                return false
            }
            s.busy = true
            return true
        }
        guard start else { return }
        queue.async { [self] in
            let due = state.withLock { s in
                s.rediscover || s.lastDiscovery.map { time - $0 >= Self.discoveryInterval } ?? true
            }
            if due { _ = discoverNow(at: time) }
            let samples = reader.poll(at: time)
            let (sensors, discovery, stopped) = state.withLock { s in
                s.busy = false
                return (s.sensors, s.discovery, s.stopped)
            }
            if !stopped {
                continuation.yield(PollCycle(
                    source: reader.source, time: time, sensors: sensors, samples: samples, discovery: discovery))
            }
        }
    }

    /// Stops producing cycles; a poll blocked in the kernel is abandoned, not awaited.
    func stop() {
        state.withLock { $0.stopped = true }
        continuation.finish()
    }
}
