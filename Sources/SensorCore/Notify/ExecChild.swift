import CLinux

#if canImport(Glibc)
import Glibc
#endif

/// One running program of an exec target: its pid, its pidfd (readable when it exits) and
/// the read end of its standard error.
@DaemonActor
final class ExecChild {
    /// How a reaped child ended.
    enum Status: Hashable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// Why a program could not be started, in words.
    struct SpawnFailure: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    let pid: pid_t
    let pidfd: Int32
    private let stderrFD: Int32
    private var reaped = false
    /// The start of what the program wrote to standard error (at most ``keptErrorBytes``).
    private var errorBytes: [UInt8] = []
    /// How much of standard error is kept for the failure message.
    static let keptErrorBytes = 4096

    private init(pid: pid_t, pidfd: Int32, stderrFD: Int32) {
        self.pid = pid
        self.pidfd = pidfd
        self.stderrFD = stderrFD
    }

    /// Starts `argv` with `environment` and `input` on its standard input (written whole
    /// into the pipe, then closed: an event is far smaller than a pipe's buffer, so the
    /// write never waits for the program). Standard output is the notifier's (the unit's
    /// journal); standard error is kept for the failure message. Signals are reset to their
    /// defaults and unblocked in the child.
    static func spawn(argv: [String], environment: [String], input: [UInt8]) -> Result<ExecChild, SpawnFailure> {
        var inPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard sw_pipe_cloexec(&inPipe, 0) == 0 else { return .failure(SpawnFailure(ErrnoText.words(errno))) }
        guard sw_pipe_cloexec(&errPipe, 1) == 0 else {
            let why = ErrnoText.words(errno)
            Glibc.close(inPipe[0]); Glibc.close(inPipe[1])
            return .failure(SpawnFailure(why))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        var pid: pid_t = 0
        let cArgv = argv.map { strdup($0) } + [nil]
        let cEnv = environment.map { strdup($0) } + [nil]
        defer {
            for p in cArgv { free(p) }
            for p in cEnv { free(p) }
        }
        let r = posix_spawn(&pid, argv[0], &actions, &attributes, cArgv, cEnv)
        Glibc.close(inPipe[0])
        Glibc.close(errPipe[1])
        guard r == 0 else {
            Glibc.close(inPipe[1]); Glibc.close(errPipe[0])
            return .failure(SpawnFailure(ErrnoText.words(r)))
        }
        _ = input.withUnsafeBufferPointer { FileDescriptorWriter.writeAll(inPipe[1], $0) }
        Glibc.close(inPipe[1])
        let pidfd = sw_pidfd_open(pid)
        guard pidfd >= 0 else {
            let why = ErrnoText.words(errno)
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            Glibc.close(errPipe[0])
            return .failure(SpawnFailure("pidfd_open: " + why))
        }
        return .success(ExecChild(pid: pid, pidfd: pidfd, stderrFD: errPipe[0]))
    }

    /// Sends `sig` to the program, unless it is already reaped.
    func signal(_ sig: Int32) {
        if !reaped { kill(pid, sig) }
    }

    /// Waits for the exited program (it has exited: its pidfd was readable) and says how it ended.
    func reap() -> Status {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        reaped = true
        // The wait-status layout: low 7 bits the signal, next 8 the exit status.
        let sig = status & 0x7f
        return sig == 0 ? .exited((status >> 8) & 0xff) : .signalled(sig)
    }

    /// Reads the program's standard error as it comes, keeping its start, until the end of
    /// the pipe (the program and whatever it started closed it) or until cancelled: a
    /// program that writes more than a pipe holds (64 KiB) before it exits would otherwise
    /// block in that write until its timeout.
    func readErrors(waiter: DescriptorWaiter) async {
        while readAvailableErrors() {
            do { try await waiter.readable(stderrFD) } catch { return }
        }
    }

    /// Reads what standard error holds now; false at its end or on an error, true when it
    /// is empty but still open.
    @discardableResult
    private func readAvailableErrors() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(stderrFD, $0.baseAddress, $0.count) }
            if n > 0 {
                let room = Self.keptErrorBytes - errorBytes.count
                if room > 0 { errorBytes += chunk[0..<min(n, room)] }
                continue
            }
            if n < 0, errno == EINTR { continue }
            return n < 0 && errno == EAGAIN
        }
    }

    /// The first line of what the program wrote to standard error (of its first 4 KiB),
    /// trimmed; empty when it wrote nothing.
    func firstErrorLine() -> String {
        readAvailableErrors()
        let line = errorBytes.split(separator: 0x0A, omittingEmptySubsequences: true).first ?? []
        return String(decoding: line, as: UTF8.self).trimmingCharacters()
    }

    /// Closes the descriptors; a program still running (a stop) is left to its SIGTERM and
    /// reaped by nobody but init once the notifier exits.
    func close() {
        Glibc.close(pidfd)
        Glibc.close(stderrFD)
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and carriage returns.
    fileprivate func trimmingCharacters() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
