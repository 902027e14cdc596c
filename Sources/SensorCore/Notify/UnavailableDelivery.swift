/// A target this build cannot deliver to: every attempt fails for good with the reason,
/// logged once per event, so the other targets go on.
@MainActor
public final class UnavailableDelivery: NotifyDelivery {
    private let reason: String

    public init(reason: String) { self.reason = reason }

    public func deliver(_ event: NotifyEvent) async -> DeliveryOutcome { .failed(reason) }
}
