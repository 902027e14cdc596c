import SensorRuntime
import SensorCore

/// Tells the service manager how the daemon is: `READY=1`, `RELOADING=1`, `STOPPING=1` at
/// each change of phase, and `STATUS=` (sensors, faulty sensors, firing alerts) whenever
/// those counts change — read by observing ``SensorData`` and the ``AlertLedger``, sent
/// through the ``ServiceLifecycle``.
@DaemonActor
final class ServiceStatus: Service {
    private let data: SensorData
    private let ledger: AlertLedger
    private let lifecycle: ServiceLifecycle
    private var lastSent: String?
    /// STATUS= goes out between READY and STOPPING only.
    private var reporting = false

    init(data: SensorData, ledger: AlertLedger, lifecycle: ServiceLifecycle) {
        self.data = data
        self.ledger = ledger
        self.lifecycle = lifecycle
    }

    /// Sends what a new phase means (READY carries the status line).
    func enter(_ phase: DaemonPhase) {
        reporting = phase == .running || phase == .reloading
        switch phase {
        case .starting: return
        case .running:
            let status = statusLine()
            lastSent = status
            lifecycle.ready(status: status)
        case .reloading: lifecycle.reloading()
        case .stopping: lifecycle.stopping()
        }
    }

    /// Sends `STATUS=` on every change of the counts after READY (before it, READY carries it).
    func run() async {
        while !Task.isCancelled {
            if reporting, let last = lastSent {
                let status = statusLine()
                if status != last {
                    lastSent = status
                    lifecycle.status(status)
                }
            }
            await nextChange(of: { _ = statusLine() })
        }
    }

    private func statusLine() -> String {
        let (sensors, faulty, firing) = (data.sensorCount, data.faulty.count, ledger.firingCount)
        return "\(sensors) sensor\(sensors == 1 ? "" : "s"), \(faulty) faulty, \(firing) firing"
    }
}
