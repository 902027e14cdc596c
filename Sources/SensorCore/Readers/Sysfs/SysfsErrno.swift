#if canImport(Glibc)
import Glibc
#endif

/// Names the errnos a sysfs read returns, for fault reasons such as `EIO (Input/output error)`.
///
/// A fixed table instead of `strerror`, which is not thread-safe and depends on the locale.
enum SysfsErrno {
    private static let names: [Int32: (String, String)] = [
        EIO: ("EIO", "Input/output error"),
        ENODATA: ("ENODATA", "No data available"),
        EAGAIN: ("EAGAIN", "Resource temporarily unavailable"),
        ETIMEDOUT: ("ETIMEDOUT", "Connection timed out"),
        ENODEV: ("ENODEV", "No such device"),
        ENOENT: ("ENOENT", "No such file or directory"),
        ENXIO: ("ENXIO", "No such device or address"),
        EREMOTEIO: ("EREMOTEIO", "Remote I/O error"),
        EINVAL: ("EINVAL", "Invalid argument"),
        EACCES: ("EACCES", "Permission denied"),
        EPERM: ("EPERM", "Operation not permitted"),
        EBUSY: ("EBUSY", "Device or resource busy"),
        ESPIPE: ("ESPIPE", "Illegal seek"),
        EISDIR: ("EISDIR", "Is a directory"),
        EOPNOTSUPP: ("EOPNOTSUPP", "Operation not supported"),
        EPROTO: ("EPROTO", "Protocol error"),
        EBADMSG: ("EBADMSG", "Bad message"),
        ENOMEM: ("ENOMEM", "Cannot allocate memory"),
        ESHUTDOWN: ("ESHUTDOWN", "Cannot send after transport endpoint shutdown"),
    ]

    /// `EIO (Input/output error)`, or `errno 123` for codes not in the table.
    static func describe(_ code: Int32) -> String {
        guard let (name, text) = names[code] else { return "errno \(code)" }
        return "\(name) (\(text))"
    }
}
