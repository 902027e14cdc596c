extension ConfigNode {
    /// The file this string value names (a scenario, a CSV), resolved against `directory`
    /// (that of the file holding the key): its path as errors show it, and its bytes (whether
    /// they are text is the named file's own problem, reported against it).
    ///
    /// Nil after reporting why at this key. A file that cannot be read is reported where it
    /// is named, with the name as written and the absolute path that was tried (SPEC §4):
    /// `c.json5: sources[1].scenario: cannot read "s.json5" (/etc/sensorwatch/s.json5): No
    /// such file or directory`, so the administrator sees which key to fix and where the
    /// file was looked for.
    package func namedFile(against directory: String) -> (path: String, bytes: [UInt8])? {
        guard let name = string() else { return nil }
        let path = ConfigPath.resolve(name, against: directory)
        do {
            return (path, try TextFile.bytes(of: path))
        } catch {
            report("cannot read \"\(name)\" (\(ConfigPath.absolute(path))): \(error.message)")
            return nil
        }
    }
}
