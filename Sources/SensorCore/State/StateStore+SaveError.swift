extension StateStore {
    /// A failed save: the state could not be encoded, or the atomic write failed (its step,
    /// file and errno).
    public enum SaveError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The alerts could not be encoded as JSON (the state file's path).
        case encode(path: String)
        /// A step of the atomic write failed.
        case write(AtomicFileWriter.Failure)

        /// `/var/lib/sensorwatch/state.json.tmp: write: No space left on device`.
        public var description: String {
            switch self {
            case .encode(let path): "\(path): cannot encode state"
            case .write(let f): "\(f.path): \(f.step.rawValue): \(f.reason)"
            }
        }
    }
}
