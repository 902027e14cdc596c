#if canImport(Glibc)
import Glibc
#endif
import Synchronization
/// One generation of a sysfs reader's I/O: passes every call to the real ``SysfsIO`` and
/// keeps track of the one in progress, so a stall watch on another thread can tell which
/// file a blocked discovery or poll is stuck in (``look()``) and give the generation up
/// (``abandon(_:)``).
///
/// Given up, a generation does no more I/O: calls return `-ECANCELED` at once (a batch
/// stops before its next file), so the thread left in the blocked read finishes quickly
/// when that read returns, without touching another file. The blocked file is in
/// ``HungFiles`` meanwhile; later generations read it as blocked (``blockedResult``)
/// without opening it, until the read returns.
final class GuardedSysfsIO: SysfsIO {
    /// The result a read or open of a blocked file gives (not an errno: see ``HungFiles``).
    static let blockedResult: Int32 = -1_000_000

    /// What a call in progress is doing: equal looks at two moments mean it did not move.
    struct Look: Equatable, Sendable {
        /// Counts calls; a batch is one call.
        var serial: UInt64
        /// The position in a batch, or -1 for a single call.
        var index: Int
        /// The file being read or opened.
        var path: String
    }

    private struct State {
        /// Open descriptors and their paths (to name the file a batch is stuck in).
        var paths: [Int32: String] = [:]
        var serial: UInt64 = 0
        /// The file of the single call in progress.
        var current: String?
        /// The batch in progress: its descriptors (valid while it runs) and progress.
        var batch: UnsafeBufferPointer<Int32>?
        var batchProgress: SysfsReadProgress?
        /// The batch of files by name in progress (``readFiles``), its directory and names.
        var files: (directory: String, names: SysfsFileList)?
        /// The file this generation was given up over, until its read returns.
        var declared: String?
        /// Blocked files asked about since ``takeBlockedAsked()`` (a discovery's).
        var blockedAsked: [String] = []
    }

    let base: any SysfsIO
    private let hung: HungFiles
    private let abandoned = Atomic<Bool>(false)
    // Holds the running batch's descriptor pointer only while that batch runs, and reads
    // it only under the lock, so it never outlives the buffer.
    private let state = Mutex<UncheckedState>(UncheckedState())

    /// `State` holds a buffer pointer, which is not `Sendable` (a plain `Mutex<State>` does
    /// not compile: the caller's pointer cannot be sent into it); the lock above is what
    /// makes sharing it safe.
    private struct UncheckedState: @unchecked Sendable {
        var s = State()
    }

    init(base: any SysfsIO, hung: HungFiles) {
        self.base = base
        self.hung = hung
    }

    /// Whether this generation was given up.
    var isAbandoned: Bool { abandoned.load(ordering: .sequentiallyConsistent) }

    func open(_ path: String) -> Int32 {
        if isAbandoned { return -ECANCELED }
        if hung.contains(path) { return Self.blockedResult }
        state.withLock { st in
            st.s.serial &+= 1
            st.s.current = path
        }
        let fd = base.open(path)
        if finish(opened: fd, path: path) {
            if fd >= 0 { base.close(fd) }
            return -ECANCELED
        }
        return fd
    }

    func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        if isAbandoned { return -Int(ECANCELED) }
        state.withLock { st in
            st.s.serial &+= 1
            st.s.current = st.s.paths[fd] ?? "descriptor \(fd)"
        }
        let n = base.read(fd, into: buffer)
        return finish(opened: -1, path: nil) ? -Int(ECANCELED) : n
    }

    func close(_ fd: Int32) {
        _ = state.withLock { $0.s.paths.removeValue(forKey: fd) }
        base.close(fd)
    }

    func readAll(
        _ fds: UnsafeBufferPointer<Int32>, into buffer: UnsafeMutableRawBufferPointer, stride: Int,
        lengths: UnsafeMutableBufferPointer<Int>, progress: SysfsReadProgress
    ) {
        state.withLock { st in
            st.s.serial &+= 1
            st.s.batch = fds
            st.s.batchProgress = progress
            progress.index = 0
        }
        // An abandon() that came before the batch was published is seen here; one after it
        // abandons the batch's progress itself.
        if isAbandoned { progress.abandon() }
        base.readAll(fds, into: buffer, stride: stride, lengths: lengths, progress: progress)
        _ = finish(opened: -1, path: nil)
    }

    /// One lock round-trip for the whole batch, and no descriptor entered in `paths` (the
    /// names say which file a stuck batch is in): per file, the open, read and close of
    /// ``SysfsLimitFiles`` took three round-trips and a dictionary insert and remove, with
    /// the C strings of the absolute paths (figures: bench/README.md, "Instructions behind the code's shortcuts").
    func readFiles(
        in directory: String, names: SysfsFileList, into buffer: UnsafeMutableRawBufferPointer, stride: Int,
        lengths: UnsafeMutableBufferPointer<Int>, progress: SysfsReadProgress
    ) {
        // A blocked file is not opened (SPEC §8): it reads as blocked, as a single open would.
        if !hung.isEmpty {
            for i in 0..<names.count where lengths[i] >= 0 && hung.contains(directory + "/" + names[i]) {
                lengths[i] = Int(Self.blockedResult)
            }
        }
        state.withLock { st in
            st.s.serial &+= 1
            st.s.files = (directory, names)
            st.s.batchProgress = progress
            progress.index = 0
        }
        if isAbandoned { progress.abandon() }
        base.readFiles(in: directory, names: names, into: buffer, stride: stride, lengths: lengths, progress: progress)
        _ = finish(opened: -1, path: nil)
    }

    func isBlocked(_ path: String) -> Bool {
        guard hung.contains(path) else { return false }
        state.withLock { $0.s.blockedAsked.append(path) }
        return true
    }

    /// The blocked files asked about since the last call (by a discovery's scan).
    func takeBlockedAsked() -> [String] {
        state.withLock { st in
            defer { st.s.blockedAsked = [] }
            return st.s.blockedAsked
        }
    }

    /// The call in progress, nil between calls.
    func look() -> Look? {
        state.withLock { st in
            if let batch = st.s.batch, let progress = st.s.batchProgress {
                guard !batch.isEmpty else { return nil }
                let i = min(max(progress.index, 0), batch.count - 1)
                return Look(serial: st.s.serial, index: i, path: st.s.paths[batch[i]] ?? "descriptor \(batch[i])")
            }
            if let files = st.s.files, let progress = st.s.batchProgress {
                guard files.names.count > 0 else { return nil }
                let i = min(max(progress.index, 0), files.names.count - 1)
                return Look(serial: st.s.serial, index: i, path: files.directory + "/" + files.names[i])
            }
            return st.s.current.map { Look(serial: st.s.serial, index: -1, path: $0) }
        }
    }

    /// Gives this generation up because its call is blocked where `look` saw it; returns
    /// false (and gives up nothing) when that call has moved on meanwhile.
    func abandon(_ look: Look) -> Bool {
        state.withLock { st -> Bool in
            let count = st.s.batch?.count ?? st.s.files?.names.count ?? 1
            let index = st.s.batchProgress.map { min(max($0.index, 0), count - 1) } ?? -1
            guard st.s.serial == look.serial, st.s.current != nil || st.s.batch != nil || st.s.files != nil,
                index == look.index
            else {
                return false
            }
            hung.add(look.path)
            st.s.declared = look.path
            abandoned.store(true, ordering: .sequentiallyConsistent)
            st.s.batchProgress?.abandon()
            return true
        }
    }

    /// Ends the call in progress; returns whether the generation was given up meanwhile.
    /// A blocked file's read has returned here: it may be opened again.
    private func finish(opened fd: Int32, path: String?) -> Bool {
        let declared = state.withLock { st -> String? in
            st.s.current = nil
            st.s.batch = nil
            st.s.files = nil
            st.s.batchProgress = nil
            if fd >= 0, let path { st.s.paths[fd] = path }
            defer { st.s.declared = nil }
            return st.s.declared
        }
        if let declared { hung.answered(declared) }
        return isAbandoned
    }
}
