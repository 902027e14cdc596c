/// Why a derived sensor has no value at some time: the reason its failed read carries.
public struct DerivedFault: Error, Sendable, Hashable, CustomStringConvertible {
    /// The reason, in words an administrator reads in `sensors` and in fault entries.
    public var reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
