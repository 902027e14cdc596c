import CLinux
import Glibc
import SensorCore
import SensorDaemon
import SensorRuntime

#if canImport(Glibc)
#endif

/// The daemon's side of the live stream (SPEC §22): a Unix stream socket, `hello`, one
/// `snapshot`, then `change`s of only what changed, to at most 64 clients.
///
/// Everything runs on the daemon's actor and waits without blocking it: the listening socket
/// and each client's socket are waited on by one ``DescriptorWaiter`` thread (poll(2)), every
/// write is non-blocking, and a client whose buffer is full keeps only a dirty set and the
/// latest state (``LiveClient``). The model is looked at when ``SensorData`` says it changed
/// (re-armed one-shot observation, so wake-ups coalesce), never per sample. What may take
/// long is done on threads of their own: encoding a snapshot (a thousand sensors' history)
/// and reading the silences from the journal.
@DaemonActor
final class LiveStreamServer: Service {
    /// The most clients connected at once; the next gets an `error`.
    static let maximumClients = 64
    /// How long a client may send its subscription before the snapshot.
    static let subscribeWait = Duration.milliseconds(200)
    /// How long a client's socket buffer may stay full before it is closed.
    static let fullLimit = Duration.seconds(60)
    /// How often the silences are read again while clients are connected.
    static let silenceRefresh = Duration.seconds(10)
    /// The least time between two rounds of changes to the clients that keep up: a look
    /// sooner holds its change back, coalesced into the next round. Each message wakes its
    /// reader and the kernel charges the wake-up to the daemon, so at 100 ms polls this halves
    /// the stream's cost; at a poll every 200 ms or slower every look still sends
    /// (docs/decisions.md, "the live stream").
    static let pace = Duration.milliseconds(190)
    /// How long a held change waits at most when no look comes to take it.
    static let paceBackstop = Duration.milliseconds(250)

    private let path: String
    private let model: DaemonModel
    private let host: String
    private let silenceSource: any LiveSilenceSource
    private let events: LiveStreamEvents
    private var table: LiveSensorTable
    private var clients: [Int32: LiveClient] = [:]
    /// The alerts as the clients were last told, without values; nil while none streams.
    private var knownAlerts: [AlertKey: LiveAlert]?
    private var silenceBook = SilenceBook()
    private var silences: [LiveSilence] = []
    private var modelWaking: ChangeSignal?
    private var clientArrived: ChangeSignal?
    private var waiter: DescriptorWaiter?
    /// Bumped at every look at the model; a change's `time` is its look's.
    private var generation = 0
    private var lookTime: Double = 0
    /// The changes of the last look by subscription, encoded once for every client that was
    /// in step (most of them: every one that keeps up), so eight clients cost about what one
    /// does. Emptied at each look, at most 16.
    private var encodedChanges: [String: [UInt8]] = [:]
    private var encodedGeneration = 0
    /// When (uptime) the last round of changes went out; a look before ``pace`` after it holds.
    private var lastRound: Duration?
    /// While a change is held: when the backstop sends it if no look does first.
    private var heldUntil: Duration?
    private var pacerWaking: ChangeSignal?

    init(path: String, model: DaemonModel, host: String, silences: any LiveSilenceSource, events: LiveStreamEvents) {
        self.path = path
        self.model = model
        self.host = host
        silenceSource = silences
        self.events = events
        table = LiveSensorTable(started: model.started)
    }

    func run() async {
        let listener = listen()
        guard listener >= 0 else { return await untilCancelled() }
        let waiter: DescriptorWaiter
        do {
            waiter = try DescriptorWaiter()
        } catch {
            model.log.log(.error, "the live stream is off: \(error)")
            close(listener)
            unlink(path)
            return await untilCancelled()
        }
        self.waiter = waiter
        events.listening.increment()
        await withDiscardingTaskGroup { group in
            group.addTask { await self.followModel() }
            group.addTask { await self.followSilences() }
            group.addTask { await self.backstop() }
            while !Task.isCancelled {
                do { try await waiter.readable(listener) } catch { break }
                while true {
                    let fd = sw_stream_accept(listener)
                    if fd < 0 { break }
                    guard clients.count < Self.maximumClients else {
                        refuse(fd)
                        continue
                    }
                    let client = LiveClient(fd: fd)
                    clients[fd] = client
                    events.accepted.increment()
                    clientArrived?.fire()
                    group.addTask { await self.serve(client) }
                }
            }
            group.cancelAll()
        }
        close(listener)
        // A clean stop removes the socket: a client then knows at once that nobody is there.
        unlink(path)
    }

    /// The listening socket, the directory made if it is the runtime directory's; -1 after
    /// logging why there is none (the daemon runs on without a stream).
    private func listen() -> Int32 {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !directory.isEmpty, mkdir(directory, 0o755) != 0, errno != EEXIST {
            model.log.log(.error, "the live stream is off: cannot make \(directory): \(ErrnoText.words(errno))")
            return -1
        }
        let fd = sw_stream_listen(path, 0o666, 128)
        if fd < 0 { model.log.log(.error, "the live stream is off: cannot listen at \(path): \(ErrnoText.words(-fd))") }
        return fd
    }

    /// The 65th client: an `error`, if its buffer takes it, and closed.
    private func refuse(_ fd: Int32) {
        let line =
            LiveMessage.error("too many clients (at most \(Self.maximumClients) at once); try again later").line + "\n"
        _ = Array(line.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
        close(fd)
        events.refused.increment()
    }

    // MARK: - The model

    private func followModel() async {
        let data = model.data
        while !Task.isCancelled {
            let signal = ChangeSignal()
            modelWaking = signal
            refresh()
            await nextChange(
                of: { [model] in
                    _ = data.readings
                    _ = data.faulty
                    model.observeAlerts()
                }, signal: signal)
        }
    }

    /// Looks at the model: keeps the table (and the history) up to date and tells each
    /// streaming client what changed.
    private func refresh(silencesChanged: Bool = false) {
        let delta = table.update(model.data.readings, faulty: model.data.faulty)
        generation &+= 1
        lookTime = model.wallClock.now.seconds
        events.looks.increment()
        let streaming = clients.values.filter(\.streaming)
        guard !streaming.isEmpty else {
            knownAlerts = nil
            return
        }
        let now = currentAlerts()
        var changed: [LiveAlert] = []
        if let before = knownAlerts {
            for (key, alert) in now where before[key] != alert { changed.append(alert) }
            for (key, var alert) in before where now[key] == nil {
                alert.state = .ok
                alert.since = model.wallClock.now.seconds
                alert.silenced = nil
                changed.append(alert)
            }
        }
        knownAlerts = now
        guard !delta.isEmpty || !changed.isEmpty || silencesChanged else { return }
        for client in streaming { client.note(delta, alerts: changed, silences: silencesChanged) }
        // An alert's transition or the silences go out at once: they are rare, and a person
        // waits for them.
        writeRound(paced: changed.isEmpty && !silencesChanged)
    }

    /// Writes the idle clients' changes; when `paced`, at most once a ``pace``: sooner, they
    /// are held for the next look past it (or the backstop). An idle client's change is written here, on
    /// the look's own turn: no wake-up of its task (which waits for the socket only when
    /// this cannot finish). Every client of a round is then clean since one look, so they
    /// share one encoding of their change.
    private func writeRound(paced: Bool = true) {
        let now = model.runTime.elapsed
        if paced, let last = lastRound, now - last < Self.pace {
            if heldUntil == nil {
                heldUntil = last + Self.paceBackstop
                pacerWaking?.fire()
            }
            return
        }
        lastRound = now
        if heldUntil != nil {
            heldUntil = nil
            // The backstop's sleep is cancelled: its alarm is taken back, no thread wakes.
            pacerWaking?.fire()
        }
        for client in clients.values where client.idle && client.failure == nil && client.hasChange {
            if flush(client) != .idle { client.wake?.fire() }
        }
    }

    /// Sends a held round when no look came to send it by ``paceBackstop`` (the sources
    /// poll slower, or stopped changing).
    private func backstop() async {
        while !Task.isCancelled {
            let signal = ChangeSignal()
            pacerWaking = signal
            guard let due = heldUntil else {
                await untilSignalledOrCancelled(signal)
                continue
            }
            let left = due - model.runTime.elapsed
            if left > .zero {
                let runTime = model.runTime
                // Woken by the signal (a look sent the round): look again.
                guard await untilSignalled(signal, or: { (try? await runTime.sleep(for: left)) != nil }) else {
                    continue
                }
            }
            guard heldUntil != nil else { continue }
            writeRound(paced: false)
        }
    }

    /// Every pending or firing alert, by key, without values, `silenced` from the silences.
    private func currentAlerts() -> [AlertKey: LiveAlert] {
        let micros = model.wallClock.now.microseconds
        var alerts: [AlertKey: LiveAlert] = [:]
        for a in model.activeAlerts() {
            let silenced = silenceBook.silencing(rule: a.rule, sensor: a.sensor, host: host, atMicroseconds: micros)
            let alert = LiveAlert(a, silenced: silenced.map { Double($0.endsMicroseconds) / 1e6 })
            alerts[alert.key] = alert
        }
        return alerts
    }

    // MARK: - Silences

    /// Reads the silences while clients are connected: at once when the first comes, then
    /// every 10 s, each read on a thread of its own (a journal read may take a while).
    private func followSilences() async {
        while !Task.isCancelled {
            if clients.isEmpty {
                let signal = ChangeSignal()
                clientArrived = signal
                if clients.isEmpty { await untilSignalledOrCancelled(signal) }
                continue
            }
            let source = silenceSource
            let book = await Self.offActor { source.read() } ?? SilenceBook()
            let active = book.active(atMicroseconds: model.wallClock.now.microseconds).map(LiveSilence.init)
            silenceBook = book
            if active != silences {
                silences = active
                refresh(silencesChanged: true)
            }
            try? await model.runTime.sleep(for: Self.silenceRefresh)
        }
    }

    /// Runs `work` on a thread of its own and returns its result; inline when no thread
    /// can be had.
    private static func offActor<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            do {
                try DetachedThread.start("live stream") { continuation.resume(returning: work()) }
            } catch {
                continuation.resume(returning: work())
            }
        }
    }

    // MARK: - A client

    private func serve(_ client: LiveClient) async {
        defer {
            clients[client.fd] = nil
            // What it sent and nobody read would make the close a reset, which can cost the
            // client the `error` line still on its way.
            var sink = [UInt8](repeating: 0, count: 4096)
            for _ in 0..<16
            where sink.withUnsafeMutableBytes({ recv(client.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) > 0 {}
            close(client.fd)
            events.closed.increment()
        }
        guard let waiter else { return }
        switch await subscription(of: client, waiter: waiter) {
        case .failure(let error):
            client.failure = error.message
        case .success(let s):
            client.subscription = s
            await sendSnapshot(to: client)
        }
        await withDiscardingTaskGroup { group in
            if client.failure == nil { group.addTask { await self.watchInput(client, waiter: waiter) } }
            await pump(client, waiter: waiter)
            group.cancelAll()
        }
    }

    /// The client's one request line, if it sends one within 200 ms.
    private func subscription(
        of client: LiveClient, waiter: DescriptorWaiter
    ) async -> Result<LiveSubscription?, LiveProtocolError> {
        let deadline = model.runTime.elapsed + Self.subscribeWait
        var lines = LiveLineBuffer(limit: LiveSubscription.maximumLineBytes)
        var chunk = [UInt8](repeating: 0, count: 4096)
        var timedOut = false
        while !Task.isCancelled && !timedOut {
            let left = deadline - model.runTime.elapsed
            let runTime = model.runTime
            let fd = client.fd
            // After the 200 ms, one more look: a line that came in time but whose wake-up
            // was late (a busy machine) still counts.
            if left <= .zero {
                timedOut = true
            } else {
                let ready = await withTimer(
                    { (try? await runTime.sleep(for: left)) != nil }, { (try? await waiter.readable(fd)) != nil })
                timedOut = ready != true
            }
            let n = chunk.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n == 0 { break }
            if n < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                break
            }
            do throws(LiveProtocolError) {
                try lines.append(chunk[0..<n])
                guard let line = try lines.nextLine() else { continue }
                // Bytes after the first newline: a second line.
                if lines.hasPartialLine {
                    throw LiveProtocolError("the stream takes one request line, then nothing more")
                }
                return .success(try LiveSubscription.decode(line))
            } catch {
                return .failure(error)
            }
        }
        if lines.hasPartialLine { return .failure(LiveProtocolError("the request line did not end within 200 ms")) }
        return .success(nil)
    }

    /// Queues `hello` and the snapshot; the snapshot is encoded on a thread of its own.
    private func sendSnapshot(to client: LiveClient) async {
        let hello = LiveHello(host: host, pid: Int(getpid()), started: model.started)
        client.queue(.hello(hello))
        if knownAlerts == nil { knownAlerts = currentAlerts() }
        let alerts = knownAlerts!.values.filter { client.includes($0.sensor) }.sorted { $0.key < $1.key }
        let table = self.table, silences = self.silences, now = model.wallClock.now.seconds
        let subscription = client.subscription
        // From here, changes are collected for it: a change after this copy is sent after.
        client.startStreaming(look: generation)
        let bytes = await Self.offActor { () -> [UInt8] in
            let ids = table.ids.filter { subscription?.includes($0) ?? true }
            var history: [String: [LiveBucket]] = [:]
            for id in ids {
                let buckets = table.history(id, now: now)
                if !buckets.isEmpty { history[id] = buckets }
            }
            let snapshot = LiveSnapshot(
                sensors: ids.compactMap { table.sensor($0) },
                alerts: alerts.map { a in
                    var a = a
                    a.value = table.value(of: a.sensor)
                    return a
                }, silences: silences, history: history)
            return Array((LiveMessage.snapshot(snapshot).line + "\n").utf8)
        }
        client.queue(bytes: bytes)
        events.snapshots.increment()
    }

    /// Reads what the client sends after its request: anything is an error; its end closes it.
    private func watchInput(_ client: LiveClient, waiter: DescriptorWaiter) async {
        var byte: UInt8 = 0
        while !Task.isCancelled {
            do { try await waiter.readable(client.fd) } catch { return }
            let n = recv(client.fd, &byte, 1, Int32(MSG_DONTWAIT))
            if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            client.failure = n > 0 ? "the stream takes one request line, first, within 200 ms; nothing after it" : ""
            // A client that also does not read would never take the error: its socket is
            // shut, so the wait for its buffer ends.
            if client.hasPendingOutput { shutdown(client.fd, Int32(SHUT_RDWR)) }
            client.wake?.fire()
            return
        }
    }

    /// How far ``flush(_:)`` got.
    private enum Flush { case idle, blocked, failed }

    /// Writes what the client's socket takes now: the message in hand, then a change built
    /// from the latest state, until nothing is left (`idle`), the buffer is full (`blocked`)
    /// or the socket failed.
    private func flush(_ client: LiveClient) -> Flush {
        while true {
            if client.hasPendingOutput {
                let n = client.out.withUnsafeBytes {
                    send(
                        client.fd, $0.baseAddress! + client.written, $0.count - client.written,
                        Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
                }
                if n > 0 {
                    client.written += n
                    client.fullSince = nil
                    continue
                }
                if n < 0 && errno == EINTR { continue }
                if n < 0 && errno == EAGAIN {
                    if client.fullSince == nil { client.fullSince = model.runTime.elapsed }
                    return .blocked
                }
                return .failed
            }
            guard client.failure == nil, client.hasChange else { return .idle }
            client.queue(bytes: changeBytes(for: client))
            events.changes.increment()
        }
    }

    /// The client's change as a line: shared by every client clean since the same look with
    /// its subscription (all of those that keep up), else its own.
    private func changeBytes(for client: LiveClient) -> [UInt8] {
        if encodedGeneration != generation {
            encodedChanges.removeAll(keepingCapacity: true)
            encodedGeneration = generation
        }
        let key = "\(client.cleanSince) \(client.subscriptionKey)"
        if let bytes = encodedChanges[key] {
            client.clearChange(look: generation)
            return bytes
        }
        guard let change = client.takeChange(time: lookTime, table: table, silences: silences, look: generation) else {
            return []
        }
        let bytes = Array((LiveMessage.change(change).line + "\n").utf8)
        if encodedChanges.count < 16 { encodedChanges[key] = bytes }
        return bytes
    }

    /// Serves the client until it is closed: flushes, and waits for a change (or a failure)
    /// when idle, for its socket (60 s at most) when blocked.
    private func pump(_ client: LiveClient, waiter: DescriptorWaiter) async {
        var closing = false
        while !Task.isCancelled {
            switch flush(client) {
            case .failed:
                return
            case .blocked:
                let left = client.fullSince! + Self.fullLimit - model.runTime.elapsed
                guard left > .zero else { return }
                events.fullWaits.increment()
                let runTime = model.runTime
                let fd = client.fd
                _ = await withTimer(
                    { (try? await runTime.sleep(for: left)) != nil }, { (try? await waiter.writable(fd)) != nil })
                continue
            case .idle:
                break
            }
            if closing { return }
            if let failure = client.failure {
                guard !failure.isEmpty else { return }
                client.queue(.error(failure))
                closing = true
                continue
            }
            let signal = ChangeSignal()
            client.wake = signal
            if client.hasChange { continue }
            client.idle = true
            await untilSignalledOrCancelled(signal)
            client.idle = false
        }
    }
}
