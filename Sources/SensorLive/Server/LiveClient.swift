import SensorCore
import SensorRuntime

/// One connected client of the stream, as the server keeps it: its subscription, and what
/// changed since its last message — a dirty set and the latest state, coalesced.
///
/// Never a queue: a sensor that changes ten times before the client reads is one id in
/// ``dirtySensors``, sent once with its value at the time of sending; an alert keeps only
/// its latest state. Memory is bounded by the number of sensors and alerts, not by time,
/// plus the one message being written (``out``).
@DaemonActor
final class LiveClient {
    /// The connection.
    let fd: Int32
    /// The sensors asked for; nil: all.
    var subscription: LiveSubscription? {
        didSet { subscriptionKey = subscription?.sensors.map(\.pattern).joined(separator: "\u{0}") ?? "*" }
    }
    /// What makes two clients with nothing pending since one look get the same change: the
    /// subscription (made once, not at every change).
    private(set) var subscriptionKey = "*"
    /// Whether the snapshot went out (changes are collected from then on).
    private(set) var streaming = false
    /// Ids of sensors changed since the last message.
    private(set) var dirtySensors: Set<String> = []
    /// Alerts changed since the last message, each at its latest state.
    private(set) var dirtyAlerts: [AlertKey: LiveAlert] = [:]
    private(set) var silencesChanged = false
    private(set) var appeared: Set<String> = []
    private(set) var gone: Set<String> = []
    /// The message being written and how much of it went.
    var out: [UInt8] = []
    var written = 0
    /// Since when (uptime) the socket's buffer has been full; nil while writes go through.
    var fullSince: Duration?
    /// Why the client is to be closed (sent as an `error` first, if it can be).
    var failure: String?
    /// Fired when there is something to do: a change, or a failure.
    var wake: ChangeSignal?
    /// Whether its task waits for ``wake`` with nothing in hand: the look at the model then
    /// writes its change itself, without waking the task.
    var idle = false
    /// The look since which it has had nothing pending (its last change was taken then, or
    /// its snapshot copied): every client with its subscription and the same look has the
    /// same change, so one encoding serves them all.
    private(set) var cleanSince = 0

    init(fd: Int32) { self.fd = fd }

    /// Whether the sensor with `id` is sent to this client.
    func includes(_ id: String) -> Bool { subscription?.includes(id) ?? true }

    /// Whether part of ``out`` is not written yet.
    var hasPendingOutput: Bool { written < out.count }

    /// Whether a change is waiting to be built.
    var hasChange: Bool { !dirtySensors.isEmpty || !dirtyAlerts.isEmpty || silencesChanged || !gone.isEmpty }

    /// The snapshot is going out (copied at `look`): changes count from now.
    func startStreaming(look: Int = 0) {
        streaming = true
        cleanSince = look
    }

    /// Takes what changed in the daemon (the part this client asked for); the server writes
    /// it (or wakes the client's task).
    func note(_ delta: LiveSensorTable.Delta, alerts: [LiveAlert], silences: Bool) {
        guard streaming else { return }
        for id in delta.gone where includes(id) {
            dirtySensors.remove(id)
            if appeared.remove(id) == nil { gone.insert(id) }
        }
        for id in delta.appeared where includes(id) {
            if gone.remove(id) == nil { appeared.insert(id) }
        }
        for id in delta.changed where includes(id) { dirtySensors.insert(id) }
        for alert in alerts where includes(alert.sensor) { dirtyAlerts[alert.key] = alert }
        if silences { silencesChanged = true }
    }

    /// The change to send now (at `look`), built from the latest state; empties the dirty
    /// sets. Nil when nothing changed.
    func takeChange(time: Double, table: LiveSensorTable, silences: [LiveSilence], look: Int = 0) -> LiveChange? {
        guard hasChange else { return nil }
        defer { clearChange(look: look) }
        let sensors = dirtySensors.sorted().compactMap { table.sensor($0) }
        let alerts = dirtyAlerts.values.sorted { $0.key < $1.key }.map { a -> LiveAlert in
            var a = a
            a.value = table.value(of: a.sensor)
            return a
        }
        return LiveChange(
            time: time, sensors: sensors, alerts: alerts, silences: silencesChanged ? silences : nil,
            appeared: appeared.sorted(), gone: gone.sorted())
    }

    /// Forgets what changed (it was sent at `look`, or the same change shared with others was).
    func clearChange(look: Int = 0) {
        dirtySensors.removeAll()
        dirtyAlerts.removeAll()
        silencesChanged = false
        appeared.removeAll()
        gone.removeAll()
        cleanSince = look
    }

    /// Puts `message` out next (after what is being written).
    func queue(_ message: LiveMessage) {
        if written == out.count {
            out.removeAll(keepingCapacity: out.count < 65536)
            written = 0
        }
        out.append(contentsOf: message.line.utf8)
        out.append(10)
    }

    /// Puts an already encoded line (with its newline) out next.
    func queue(bytes: [UInt8]) {
        if written == out.count {
            out = bytes
            written = 0
        } else {
            out.append(contentsOf: bytes)
        }
    }
}
