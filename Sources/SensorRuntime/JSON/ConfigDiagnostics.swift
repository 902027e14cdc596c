/// Collects the problems found while walking one file, in the order they are found.
///
/// A reference type so that every node of one walk appends to the same list.
package final class ConfigDiagnostics {
    /// The file the problems are reported against.
    package let file: String
    package private(set) var errors: [ConfigError] = []

    package init(file: String) { self.file = file }

    /// Records a problem at a key path; the empty path stands for the file as a whole.
    package func report(_ path: String, _ message: String) {
        errors.append(ConfigError(file: file, location: path.isEmpty ? .file : .keyPath(path), message: message))
    }

    /// Records a problem at a position (syntax errors, CSV cells).
    package func report(line: Int, column: Int, _ message: String) {
        errors.append(ConfigError(file: file, location: .position(line: line, column: column), message: message))
    }

    /// Records a problem about the file as a whole.
    package func reportFile(_ message: String) {
        errors.append(ConfigError(file: file, location: .file, message: message))
    }
}
