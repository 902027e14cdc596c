/// How one attempt to deliver an event to a target ended (SPEC §17).
public enum DeliveryOutcome: Sendable, Hashable {
    /// Taken: exit 0, or a 2xx answer.
    case delivered
    /// Not taken this time (exit 75, a timeout, a program that cannot start, a 5xx, no
    /// connection): tried again after a back-off. The reason is for the log.
    case retry(String)
    /// Refused for good (any other exit, another 4xx): logged, not tried again.
    case failed(String)
}
