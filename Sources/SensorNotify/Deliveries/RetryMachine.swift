public import SensorConfig
/// When one target tries an event again: a pure `(state, event, now) -> (state, [action])`
/// machine, so the back-off is tested in virtual time and the driver only performs actions.
///
/// An event is delivered once; a `retry` waits 1 s, then 2 s, 4 s … and at most 5 min
/// between attempts (SPEC §17), while the target's later events wait behind it, so none is
/// lost and the order holds — up to `giveUp` after the first attempt: the last wait ends at
/// that moment, and an event still not delivered then is logged as undeliverable and
/// skipped (a removed program does not stop its target for ever). A `failed` event is
/// logged and left.
public struct RetryMachine: Sendable, Hashable {
    /// The first wait.
    public static let firstDelay: Duration = .seconds(1)
    /// The longest wait.
    public static let maximumDelay: Duration = .seconds(300)

    /// Where the machine is.
    public enum State: Sendable, Hashable {
        /// No event in hand.
        case idle
        /// An attempt runs; `retries` attempts have failed before it, the first made at `since`.
        case delivering(retries: Int, since: Duration)
        /// Waiting until `until` to make attempt `retries + 1`; the first was made at `since`.
        case waiting(retries: Int, until: Duration, since: Duration)
    }

    /// What happened.
    public enum Input: Sendable, Hashable {
        /// A new event to deliver.
        case event
        /// The running attempt ended so.
        case outcome(DeliveryOutcome)
        /// The wait ended.
        case timer
    }

    /// What the driver does next, in order.
    public enum Action: Sendable, Hashable {
        /// Start an attempt.
        case deliver
        /// The event is done with (delivered or failed): move the target's cursor past it.
        case commit
        /// Wait until this time (on the driver's clock, as `now` is given), then send `.timer`.
        case wait(until: Duration)
        /// Log at warning: the event will be tried again.
        case logRetry(String, after: Duration)
        /// Log at err: the event is not tried again.
        case logFailure(String)
        /// Log at err: the event is undeliverable, still not delivered `giveUp` after its
        /// first attempt (the last attempt's reason given), and skipped.
        case logUndeliverable(String)
    }

    /// The state now.
    public private(set) var state: State = .idle
    /// How long after its first attempt an event is given up.
    public var giveUp: Duration

    /// - Parameter giveUp: how long after its first attempt an event is given up.
    public init(giveUp: Duration = NotifyTarget.defaultGiveUp) {
        self.giveUp = giveUp
    }

    /// The wait after `retries` failed attempts: 1 s, 2 s, 4 s … at most 5 min.
    public static func delay(afterRetries retries: Int) -> Duration {
        let exponent = max(0, retries - 1)
        guard exponent < 10 else { return maximumDelay }
        return min(firstDelay * (1 << exponent), maximumDelay)
    }

    /// Feeds `input` at time `now` and returns what to do. An input the state does not
    /// expect (a stray timer) changes nothing.
    public mutating func handle(_ input: Input, now: Duration) -> [Action] {
        switch (state, input) {
        case (.idle, .event):
            state = .delivering(retries: 0, since: now)
            return [.deliver]
        case (.delivering, .outcome(.delivered)):
            state = .idle
            return [.commit]
        case (.delivering, .outcome(.failed(let why))):
            state = .idle
            return [.logFailure(why), .commit]
        case (.delivering(let retries, let since), .outcome(.retry(let why))):
            let deadline = since + giveUp
            guard now < deadline else {
                state = .idle
                return [.logUndeliverable(why), .commit]
            }
            let delay = min(Self.delay(afterRetries: retries + 1), deadline - now)
            state = .waiting(retries: retries + 1, until: now + delay, since: since)
            return [.logRetry(why, after: delay), .wait(until: now + delay)]
        case (.waiting(let retries, let until, let since), .timer) where now >= until:
            state = .delivering(retries: retries, since: since)
            return [.deliver]
        default:
            return []
        }
    }
}
