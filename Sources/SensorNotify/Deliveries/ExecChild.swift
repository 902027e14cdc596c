import CLinux
import Glibc
import SensorRuntime

#if canImport(Glibc)
#endif

/// One running program of an exec target: its pid (also its process group's id), its pidfd
/// (readable when it exits), the write end of its standard input and the read end of its
/// standard error.
@DaemonActor
final class ExecChild {
    /// How a reaped child ended.
    enum Status: Hashable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// The failure of a program started but not watched (no pidfd; it is killed): its
    /// errno says nothing of the program, so the message names the call.
    nonisolated static let watching = SystemError.Operation.call("pidfd_open")

    let pid: pid_t
    let pidfd: Int32
    private let stderrFD: Int32
    /// The write end of standard input (non-blocking), -1 once closed.
    private var inputFD: Int32
    private let input: [UInt8]
    private var written = 0
    /// Whether the program is reaped (its pid and group id may be another's now).
    private(set) var reaped = false
    private var closed = false
    /// The start of what the program wrote to standard error (at most ``keptErrorBytes``).
    private var errorBytes: [UInt8] = []
    /// How much of standard error is kept for the failure message.
    static let keptErrorBytes = 4096

    private init(pid: pid_t, pidfd: Int32, stderrFD: Int32, inputFD: Int32, input: [UInt8]) {
        self.pid = pid
        self.pidfd = pidfd
        self.stderrFD = stderrFD
        self.inputFD = inputFD
        self.input = input
    }

    /// Starts `argv` with `environment`, in a process group of its own (the timeout signals
    /// what it started too), with `input` for its standard input (written by
    /// ``writeAvailableInput()`` and ``writeInput(waiter:)``, as fast as the program reads it:
    /// never blocking `notify`).
    /// Standard output is the notifier's (the unit's journal); standard error is kept for the
    /// failure message; no other descriptor of `notify` reaches it, close-on-exec or not.
    /// Signals are reset to their defaults and unblocked in the child.
    static func spawn(argv: [String], environment: [String], input: [UInt8]) -> Result<ExecChild, SystemError> {
        var inPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard sw_pipe_cloexec(&inPipe, 0) == 0 else { return .failure(SystemError(.call("pipe2"), errno: errno)) }
        guard sw_pipe_cloexec(&errPipe, 1) == 0, fcntl(inPipe[1], F_SETFL, O_NONBLOCK) == 0 else {
            let why = SystemError(.call("pipe2"), errno: errno)
            for fd in inPipe + errPipe where fd >= 0 { Glibc.close(fd) }
            return .failure(why)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        let closing = sw_spawn_close_from(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        // Group 0: a new group whose id is the child's pid.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
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
        // Without the closing action a descriptor opened without close-on-exec would reach
        // the program: it is not started then.
        let r = closing != 0 ? closing : posix_spawn(&pid, argv[0], &actions, &attributes, cArgv, cEnv)
        Glibc.close(inPipe[0])
        Glibc.close(errPipe[1])
        guard r == 0 else {
            Glibc.close(inPipe[1]); Glibc.close(errPipe[0])
            return .failure(SystemError(.call("posix_spawn"), errno: r))
        }
        let pidfd = sw_pidfd_open(pid)
        guard pidfd >= 0 else {
            let why = SystemError(watching, errno: errno)
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            Glibc.close(inPipe[1]); Glibc.close(errPipe[0])
            return .failure(why)
        }
        return .success(ExecChild(pid: pid, pidfd: pidfd, stderrFD: errPipe[0], inputFD: inPipe[1], input: input))
    }

    /// Writes what the standard input takes now; true when it is all written (or the
    /// program closed its end: EPIPE, `notify` ignores SIGPIPE) and closed, false when the
    /// pipe is full.
    @discardableResult
    func writeAvailableInput() -> Bool {
        while inputFD >= 0, written < input.count {
            let n = input.withUnsafeBytes { write(inputFD, $0.baseAddress! + written, $0.count - written) }
            if n > 0 {
                written += n
            } else if n < 0, errno == EINTR {
                continue
            } else if n < 0, errno == EAGAIN {
                return false
            } else {
                break
            }
        }
        closeInput()
        return true
    }

    /// Writes the rest of the standard input as the program reads it, then closes it; stops
    /// when cancelled.
    func writeInput(waiter: DescriptorWaiter) async {
        while !writeAvailableInput() {
            do { try await waiter.writable(inputFD) } catch { return closeInput() }
        }
    }

    private func closeInput() {
        if inputFD >= 0 { Glibc.close(inputFD) }
        inputFD = -1
    }

    /// Sends `sig` to the program's process group (the program and what it started), unless
    /// the program is reaped (its group's id may then be another's).
    func signalGroup(_ sig: Int32) {
        if !reaped { kill(-pid, sig) }
    }

    /// Waits for the exited program (it has exited: its pidfd was readable) and says how it
    /// ended. What it left running in its group is killed first, while the unreaped program
    /// still holds the group's id: nothing a program starts outlives it.
    func reap() -> Status {
        precondition(!reaped, "a child is reaped once")
        signalGroup(SIGKILL)
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

    /// Closes the descriptors (once the program is reaped).
    func close() {
        guard !closed else { return }
        closed = true
        closeInput()
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
