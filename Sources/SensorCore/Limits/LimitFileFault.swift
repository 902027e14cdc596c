/// Why a limit file gave no number.
public struct LimitFileFault: Error, Hashable, Sendable {
    /// For people: `read blocked`, `cannot be read`, `not a number: "abc"`.
    public var reason: String

    /// A fault with its reason.
    public init(_ reason: String) { self.reason = reason }
}
