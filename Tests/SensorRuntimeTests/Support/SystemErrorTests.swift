#if canImport(Glibc)
import Glibc
#endif
import SensorRuntime
import Testing

/// A failed system call as people read it: the operation, the file and the errno's words,
/// in the sentence each operation has always had.
struct SystemErrorTests {
    @Test(arguments: [
        (SystemError.Operation.open, "open /run/x/.m.prom.tmp: Permission denied"),
        (.read, "read /run/x/.m.prom.tmp: Permission denied"),
        (.write, "write /run/x/.m.prom.tmp: Permission denied"),
        (.truncate, "truncate /run/x/.m.prom.tmp: Permission denied"),
        (.chmod, "chmod /run/x/.m.prom.tmp: Permission denied"),
        (.fsync, "fsync /run/x/.m.prom.tmp: Permission denied"),
        (.rename, "rename to /run/x/.m.prom.tmp: Permission denied"),
        (.createDirectory, "create directory /run/x/.m.prom.tmp: Permission denied"),
        (.fsyncDirectory, "fsync directory /run/x/.m.prom.tmp: Permission denied"),
    ])
    func aFileStepIsSaidBeforeThePath(operation: SystemError.Operation, description: String) {
        #expect(SystemError(operation, path: "/run/x/.m.prom.tmp", errno: EACCES).description == description)
    }

    @Test func aCallIsNamedAfterThePathOrAloneWithoutOne() {
        let remote = SystemError(.call("sd_journal_next"), path: "/var/log/journal/remote", errno: EBADMSG)
        #expect(remote.description == "/var/log/journal/remote: sd_journal_next: Bad message")
        #expect(SystemError(.call("sd_journal_next"), errno: EBADMSG).description == "sd_journal_next: Bad message")
    }

    @Test func aPhrasedOperationIsSaidInItsOwnWordsWithOrWithoutAPath() {
        let connect = SystemError.Operation.phrased("connect", as: "cannot connect to")
        #expect(
            SystemError(connect, path: "/run/sensorwatch/live.sock", errno: ECONNREFUSED).description
                == "cannot connect to /run/sensorwatch/live.sock: Connection refused")
        let thread = SystemError.Operation.phrased("pthread_create", as: "cannot start a thread for the clock")
        #expect(
            SystemError(thread, errno: EAGAIN).description
                == "cannot start a thread for the clock: Resource temporarily unavailable")
    }

    @Test func theCallDescriptionLeadsWithThePathAndNamesTheStep() {
        let rename = SystemError(.rename, path: "/var/lib/sensorwatch/state.json", errno: EROFS)
        #expect(rename.callDescription == "/var/lib/sensorwatch/state.json: rename: Read-only file system")
        #expect(SystemError(.read, errno: EISDIR).callDescription == "read: Is a directory")
    }

    @Test func theErrnoIsKeptAndItsWordsAreTheReason() {
        let error = SystemError(.write, path: "/tmp/f", errno: ENOSPC)
        #expect(error.errno == ENOSPC)
        #expect(error.reason == "No space left on device")
        #expect(error.reason == ErrnoText.words(ENOSPC))
        #expect(SystemError(.write, errno: 4242).reason == "unknown error 4242")
    }

    @Test func errorsAreEqualOnlyWhenOperationPathAndErrnoAllAre() {
        let error = SystemError(.open, path: "/tmp/f", errno: EACCES)
        #expect(error == SystemError(.open, path: "/tmp/f", errno: EACCES))
        #expect(error != SystemError(.write, path: "/tmp/f", errno: EACCES))
        #expect(error != SystemError(.open, path: "/tmp/g", errno: EACCES))
        #expect(error != SystemError(.open, errno: EACCES))
        #expect(error != SystemError(.open, path: "/tmp/f", errno: EPERM))
        // The same name said another way is another operation.
        #expect(SystemError.Operation.rename != .call("rename"))
    }
}
