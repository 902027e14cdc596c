#if canImport(Glibc)
import Glibc
#endif

extension StateStore {
    /// A failed save: the step, the path it worked on and the errno.
    public struct SaveError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The step of the atomic write that failed.
        public enum Step: String, Hashable, Sendable {
            case encode, createDirectory, open, write, fsync, rename, fsyncDirectory
        }

        /// Which step failed.
        public var step: Step
        /// The file or directory it failed on.
        public var path: String
        /// The errno (0 for `encode`).
        public var errno: Int32

        public init(step: Step, path: String, errno: Int32) {
            self.step = step
            self.path = path
            self.errno = errno
        }

        public var description: String {
            let reason = step == .encode ? "cannot encode state" : ErrnoText.words(errno)
            return "\(path): \(step.rawValue): \(reason)"
        }
    }
}
