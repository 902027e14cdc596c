import SensorRuntime

/// Why a reading gave no value: a sensor's read, a derived sensor's inputs, a limit file.
/// The system's error is kept as its errno, so that a caller decides by code (`EMFILE` is a
/// shortage of descriptors, whatever the words); anything else is words (an empty file, text
/// that is no number, a value out of range, a file that blocks, a BMC that does not answer).
public enum ReadFault: Error, Hashable, Sendable, CustomStringConvertible,
    ExpressibleByStringInterpolation
{
    /// A system call failed with this errno; written `EIO (Input/output error)`.
    case system(errno: Int32)
    /// Any other reason, in the words a person reads.
    case other(String)

    /// A reason in words (tests and scenarios write faults so).
    public init(stringLiteral reason: String) { self = .other(reason) }

    /// A reason in words with values in it (`driver error \(code) printed as a value`).
    public init(stringInterpolation: DefaultStringInterpolation) {
        self = .other(String(stringInterpolation: stringInterpolation))
    }

    /// The reason as the journal, `status` and the live stream write it.
    public var description: String {
        switch self {
        case .system(let code): ErrnoText.named(code)
        case .other(let reason): reason
        }
    }

    /// The errno of a failed system call; nil for a reason in words.
    public var errno: Int32? {
        if case .system(let code) = self { code } else { nil }
    }
}
