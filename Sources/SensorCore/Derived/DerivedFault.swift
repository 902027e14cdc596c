/// Why a derived sensor has no value at some time: the reason its failed read carries.
public struct DerivedFault: Error, Sendable, Hashable, CustomStringConvertible {
    /// The reason, in words an administrator reads in `sensors` and in fault entries.
    public var reason: String

    /// A fault with the given reason.
    public init(_ reason: String) { self.reason = reason }

    /// The reason, as `sensors` and the fault entries show it.
    public var description: String { reason }
}
