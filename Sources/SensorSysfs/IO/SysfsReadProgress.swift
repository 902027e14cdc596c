import CLinux
/// Where a reader's batch of reads has got to, and whether it was given up: shared between
/// the thread that reads and the stall watch that looks at it from another thread.
///
/// The C read loop (`sw_pread_all`) stores the index before each `pread` and stops at the
/// next one once abandoned: one relaxed store and load per file, nothing the hot path notices.
/// A class around C memory because Swift's `Atomic` cannot be handed to C; every access is
/// an atomic builtin on the C side, which is what makes the `@unchecked Sendable` true.
public final class SysfsReadProgress: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<sw_read_progress>

    /// A fresh progress: index 0, not abandoned.
    public init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: sw_read_progress(index: 0, abandoned: 0))
    }

    deinit { pointer.deallocate() }

    /// The position being read now (the batch's index, for a batch).
    public var index: Int {
        get { sw_progress_index(pointer) }
        set { sw_progress_set_index(pointer, newValue) }
    }

    /// Whether the reads were given up: every later read returns `-ECANCELED` at once.
    public var isAbandoned: Bool { sw_progress_abandoned(pointer) != 0 }

    /// Gives the reads up (for good).
    public func abandon() { sw_progress_abandon(pointer) }
}
