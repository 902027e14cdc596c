public import SensorCore
import Glibc

/// Reads a BMC's password (SPEC §23): from `passwordFile` (refused unless only its owner
/// may read it) or from a systemd credential in `$CREDENTIALS_DIRECTORY`; a trailing
/// newline is not part of it. Read when a session opens, never kept in the configuration.
public enum IPMIPassword {
    /// The password for `settings`; in band, none is needed (empty).
    public static func read(
        _ settings: IPMISourceSettings, credentialsDirectory: String? = Self.credentialsDirectory
    ) throws(IPMIFailure) -> String {
        let path: String
        if let file = settings.passwordFile {
            if let problem = IPMIDecoder.passwordFileProblem(file) { throw IPMIFailure(.secret, problem) }
            path = file
        } else if let name = settings.credential {
            guard let dir = credentialsDirectory, !dir.isEmpty else {
                throw IPMIFailure(.secret, "credential \"\(name)\": $CREDENTIALS_DIRECTORY is not set (LoadCredential=\(name):… in the unit)")
            }
            path = dir + "/" + name
        } else {
            return ""
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw IPMIFailure(.secret, "cannot read \"\(path)\": \(ErrnoText.words(errno))") }
        defer { Glibc.close(fd) }
        var bytes: [UInt8]
        do throws(WholeFile.ReadError) {
            bytes = try WholeFile.read(fd)
        } catch {
            throw IPMIFailure(.secret, "cannot read \"\(path)\": \(ErrnoText.words(error.errno))")
        }
        if bytes.last == 10 { bytes.removeLast() }
        if bytes.last == 13 { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// This process's `$CREDENTIALS_DIRECTORY`.
    public static var credentialsDirectory: String? { getenv("CREDENTIALS_DIRECTORY").map { String(cString: $0) } }
}
