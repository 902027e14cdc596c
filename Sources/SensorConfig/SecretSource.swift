#if canImport(Glibc)
import Glibc
#endif
package import SensorRuntime

/// Where a password comes from (a BMC's, SPEC §23; a broker's, §24), never the password
/// itself: a file only its owner may read (`passwordFile`), or a systemd credential
/// (`credential`, read from `$CREDENTIALS_DIRECTORY`).
///
/// The one way the project decodes, checks and reads a secret, so a password file refused
/// for one part is refused for the other in the same words. The configuration is
/// world-readable and `check`'s output travels: a `password` key is an error that never
/// repeats its value, and no message here holds what the secret could be.
public enum SecretSource: Sendable, Hashable {
    /// A file of mode 0600 or 0400 (absolute); its trailing newline is not part of the password.
    case file(String)
    /// A systemd credential's name (`LoadCredential=NAME:…`).
    case credential(String)

    /// What the configuration says of a secret.
    package enum Decoded: Sendable, Hashable {
        /// Neither `passwordFile` nor `credential` is given.
        case absent
        /// Where the secret is.
        case source(SecretSource)
        /// A key is wrong; each problem was reported at its key.
        case invalid
    }

    /// Decodes `passwordFile` (relative to `configDirectory`) or `credential` of `object`,
    /// and refuses a `password` key.
    package static func decode(_ object: ConfigObject, configDirectory: String) -> Decoded {
        var valid = true
        if let node = object["password"] {
            node.report(
                "a password does not belong in the configuration: put it in passwordFile (mode 0600) or a systemd credential (credential)"
            )
            valid = false
        }
        var found: SecretSource?
        if let node = object["passwordFile"] {
            if let text = node.string() {
                let path = ConfigPath.absolute(ConfigPath.resolve(text, against: configDirectory))
                if let problem = fileProblem(path) {
                    node.report(problem)
                    valid = false
                } else {
                    found = .file(path)
                }
            } else {
                valid = false
            }
        }
        if let node = object["credential"] {
            if let name = node.string(), !name.isEmpty, !name.utf8.contains(UInt8(ascii: "/")), name != ".",
                name != ".."
            {
                if object["passwordFile"] != nil {
                    node.report("passwordFile and credential are two ways to give one password: keep one")
                    valid = false
                } else {
                    found = .credential(name)
                }
            } else {
                node.report("must name a systemd credential (LoadCredential=NAME:…), without a /")
                valid = false
            }
        }
        guard valid else { return .invalid }
        return found.map(Decoded.source) ?? .absent
    }

    /// Why the file at `path` may not hold a password, or nil: it must be a regular file
    /// that only its owner can read (mode 0600 or 0400).
    package static func fileProblem(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return "cannot read \"\(path)\": \(ErrnoText.words(errno))" }
        guard info.st_mode & S_IFMT == S_IFREG else { return "\"\(path)\" is not a regular file" }
        let mode = info.st_mode & 0o7777
        guard mode == 0o600 || mode == 0o400 else {
            return
                "\"\(path)\" has mode 0\(String(mode, radix: 8)): a password file must have mode 0600 or 0400 (chmod 600)"
        }
        return nil
    }

    /// Why a secret cannot be had, in words that never hold it.
    public struct ReadFailure: Error, Sendable, Hashable {
        /// What went wrong, for a person.
        public let message: String
    }

    /// The secret: the file's text, or the credential's (a file in `credentialsDirectory`,
    /// systemd's `$CREDENTIALS_DIRECTORY`), without one trailing newline. The file's mode is
    /// checked again: it may have changed since `check`.
    public func read(credentialsDirectory: String? = SecretSource.credentialsDirectory) -> Result<String, ReadFailure> {
        let path: String
        switch self {
        case .file(let file):
            if let problem = Self.fileProblem(file) { return .failure(ReadFailure(message: problem)) }
            path = file
        case .credential(let name):
            guard let directory = credentialsDirectory, !directory.isEmpty else {
                return .failure(
                    ReadFailure(
                        message:
                            "credential \"\(name)\": $CREDENTIALS_DIRECTORY is not set (LoadCredential=\(name):FILE in the unit)"
                    ))
            }
            path = directory + "/" + name
        }
        do {
            var text = try TextFile.contents(of: path)
            // "\r\n" is one Character: both line ends go with one removeLast.
            if text.last == "\n" || text.last == "\r\n" { text.removeLast() }
            return .success(text)
        } catch {
            return .failure(ReadFailure(message: "cannot read the password from \(path): \(error.message)"))
        }
    }

    /// This process's `$CREDENTIALS_DIRECTORY`.
    public static var credentialsDirectory: String? {
        getenv("CREDENTIALS_DIRECTORY").flatMap { String(validatingCString: $0) }
    }
}
