extension MQTTConfiguration.PasswordSource {
    /// The password: the file's text, or the credential's (a file in `credentialsDirectory`,
    /// systemd's `$CREDENTIALS_DIRECTORY`), without one trailing newline. The reason in
    /// words when it cannot be had; the reason never holds the password.
    public func read(credentialsDirectory: String?) -> Result<String, SyntaxError> {
        let path: String
        switch self {
        case .file(let file):
            // Checked again: the mode may have changed since `check`.
            if let problem = MQTTDecoder.passwordFileProblem(file) {
                return .failure(SyntaxError(message: "password file \(file): \(problem)"))
            }
            path = file
        case .credential(let name):
            guard let directory = credentialsDirectory, !directory.isEmpty else {
                return .failure(SyntaxError(
                    message: "credential \"\(name)\": $CREDENTIALS_DIRECTORY is not set (LoadCredential=\(name):FILE in the unit)"))
            }
            path = directory + "/" + name
        }
        do {
            var text = try TextFile.contents(of: path)
            // "\r\n" is one Character: both line ends go with one removeLast.
            if text.last == "\n" || text.last == "\r\n" { text.removeLast() }
            return .success(text)
        } catch {
            return .failure(SyntaxError(message: "cannot read the password from \(path): \(error.message)"))
        }
    }
}
