import MosquittoLoader
public import SensorConfig
public import SensorRuntime
import Synchronization

/// An ``MQTTClient`` on libmosquitto, which is opened with dlopen when the first client is
/// made, so only `sensorwatch mqtt` loads it (SPEC §1).
///
/// One thread of its own (``DetachedThread``) connects and runs the connection; it waits
/// out the backoff between attempts on an alarm of the injected clock. Messages are queued
/// from the caller's thread: libmosquitto, in threaded mode, locks its queue and wakes the
/// connection's wait, so a value goes out at once.
public final class MosquittoClient: MQTTClient {
    /// What the client connects with.
    public struct Settings: Sendable {
        /// The broker.
        public var broker: MQTTBrokerAddress
        /// The MQTT client id.
        public var clientID: String
        /// The login, if any; the password is used for the login only, never shown.
        public var username: String?
        /// The password, if any.
        public var password: String?
        /// The CA file for an `mqtts://` broker (nil: the system's CAs).
        public var ca: String?
        /// The last will: what the broker publishes when the connection dies.
        public var will: MQTTMessage?

        /// Settings with these parts.
        public init(
            broker: MQTTBrokerAddress, clientID: String, username: String? = nil, password: String? = nil,
            ca: String? = nil, will: MQTTMessage? = nil
        ) {
            self.broker = broker
            self.clientID = clientID
            self.username = username
            self.password = password
            self.ca = ca
            self.will = will
        }
    }

    /// libmosquitto could not be loaded or refused the settings.
    public struct LoadFailure: Error, CustomStringConvertible, Sendable {
        /// The reason in words (naming the package to install when it is missing).
        public let description: String
    }

    /// At most this many messages wait in libmosquitto for the broker (SPEC §24's bound).
    public static let queueLimit = 10_000
    /// The keep-alive interval: a broker that stops answering is noticed within 1.5 × it.
    static let keepAliveSeconds: Int32 = 30

    private let settings: Settings
    private let relay = MosquittoEventRelay()
    /// The C client; libmosquitto locks its own state in threaded mode, so publishing,
    /// subscribing and disconnecting from any thread are safe. Freed in deinit, which comes
    /// after the connection's thread ended (the thread holds the client).
    private nonisolated(unsafe) let handle: OpaquePointer
    private let alarm: any ClockAlarm
    private struct State {
        var stopping = false
        var threadEnded = false
        /// The thread is in a blocking connect (a broker that drops SYNs holds it for minutes).
        var connecting = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())

    /// Loads libmosquitto (once) and makes the client; nothing connects until ``start(_:)``.
    ///
    /// - Throws: ``LoadFailure`` when libmosquitto is missing or refuses the settings.
    public init(settings: Settings, clock: any RunClock) throws(LoadFailure) {
        self.settings = settings
        alarm = clock.makeAlarm()
        var callbacks = sw_mqtt_callbacks()
        callbacks.context = Unmanaged.passUnretained(relay).toOpaque()
        callbacks.connected = { context, code in
            Unmanaged<MosquittoEventRelay>.fromOpaque(context!).takeUnretainedValue().connected(code: code)
        }
        callbacks.message = { context, topic, payload, length in
            let bytes = payload.map { UnsafeRawBufferPointer(start: $0, count: Int(max(0, length))) }
            let text = bytes.map { String(decoding: $0, as: UTF8.self) } ?? ""
            Unmanaged<MosquittoEventRelay>.fromOpaque(context!).takeUnretainedValue()
                .message(topic: String(cString: topic!), payload: text)
        }
        callbacks.published = { context, _ in
            Unmanaged<MosquittoEventRelay>.fromOpaque(context!).takeUnretainedValue().release()
        }
        var error = [CChar](repeating: 0, count: 512)
        let made = sw_mqtt_new(
            settings.clientID, settings.username, settings.username == nil ? nil : (settings.password ?? ""),
            settings.will?.topic, settings.will?.payload, settings.broker.tls ? 1 : 0, settings.ca, &callbacks,
            &error, error.count)
        guard let made else { throw LoadFailure(description: Self.text(error)) }
        handle = made
    }

    deinit { sw_mqtt_destroy(handle) }

    /// Starts the connection's thread: connect, run, and after each end wait out the backoff.
    public func start(_ events: @escaping @Sendable (MQTTEvent) -> Void) throws(SystemError) {
        relay.listen(events)
        try DetachedThread.start("the MQTT connection") { [self] in
            runConnection()
            let waiting = state.withLock { s -> [CheckedContinuation<Void, Never>] in
                s.threadEnded = true
                defer { s.waiting = [] }
                return s.waiting
            }
            for c in waiting { c.resume() }
        }
    }

    /// Queues `message` while the broker has accepted the connection and fewer than
    /// ``queueLimit`` wait for it.
    public func publish(_ message: MQTTMessage) -> Bool {
        guard relay.reserve(limit: Self.queueLimit) else { return false }
        let bytes = Array(message.payload.utf8)
        let mid = bytes.withUnsafeBytes {
            sw_mqtt_publish(
                handle, message.topic, $0.baseAddress, Int32($0.count), Int32(message.qos), message.retain ? 1 : 0)
        }
        if mid < 0 { relay.release() }
        return mid >= 0
    }

    /// Subscribes at QoS 1 while the broker has accepted the connection.
    public func subscribe(_ filter: String) -> Bool {
        relay.accepted && sw_mqtt_subscribe(handle, filter, 1) == 0
    }

    /// Publishes `final`, disconnects cleanly, and waits for the thread (not for a connect
    /// still in progress).
    public func stop(with final: MQTTMessage?) async {
        let (ended, connecting) = state.withLock { s -> (Bool, Bool) in
            s.stopping = true
            return (s.threadEnded, s.connecting)
        }
        if let final, relay.accepted { _ = publish(final) }
        sw_mqtt_disconnect(handle)
        alarm.ring()
        // A connect in progress cannot be cut short: the stop does not wait for it (the
        // thread ends when it returns, and nothing was published on that connection).
        guard !ended, !connecting else { return }
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if s.threadEnded { return true }
                s.waiting.append(c)
                return false
            }
            if now { c.resume() }
        }
    }

    private var stopping: Bool { state.withLock { $0.stopping } }

    /// The connection's thread: connect, run, and after each end wait and try again.
    private func runConnection() {
        var backoff = ReconnectBackoff()
        var error = [CChar](repeating: 0, count: 512)
        while !stopping {
            relay.attempt()
            error[0] = 0
            state.withLock { $0.connecting = true }
            let made =
                sw_mqtt_connect(
                    handle, settings.broker.host, Int32(settings.broker.port), Self.keepAliveSeconds, &error,
                    error.count) == 0
            state.withLock { $0.connecting = false }
            if made {
                var askedToLeave = false
                while sw_mqtt_loop(handle, 1000, &error, error.count) == 0 {
                    if stopping, !askedToLeave {
                        // stop() asked while a connection was being made: leave cleanly.
                        sw_mqtt_disconnect(handle)
                        askedToLeave = true
                    }
                }
            }
            let accepted = relay.accepted
            relay.ended()
            if stopping { break }
            if accepted { backoff.succeeded() }
            let wait = backoff.failed()
            relay.emit(.disconnected(problem(Self.text(error)), retryIn: wait))
            alarm.sleep(for: wait)
        }
    }

    /// The cause of the connection's end, in words for the person who reads the journal.
    private func problem(_ detail: String) -> MQTTProblem {
        let broker = settings.broker.description
        if let code = relay.refusal {
            let words = String(cString: sw_mqtt_connack_text(code))
            let who = settings.username.map { " as \"\($0)\"" } ?? " without a user name"
            return MQTTProblem(.loginRefused, "\(broker) refused the login\(who): \(words)")
        }
        if settings.broker.tls, sw_mqtt_failed_in_tls(handle) != 0 {
            return MQTTProblem(
                .tls, "\(broker): TLS failed, the broker's certificate is not trusted or TLS broke: \(detail)")
        }
        return MQTTProblem(.unreachable, "\(broker): \(detail.isEmpty ? "the connection ended" : detail)")
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
