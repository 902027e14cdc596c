public import SensorRuntime

extension StateStore {
    /// A failed save: the atomic write failed (its step, file and errno).
    public enum SaveError: Error, Hashable, Sendable, CustomStringConvertible {
        /// A step of the atomic write failed.
        case write(SystemError)

        /// `/var/lib/sensorwatch/state.json.tmp: write: No space left on device`.
        public var description: String {
            switch self {
            case .write(let f): f.callDescription
            }
        }
    }
}
