import CLinux
import SensorTestKit
import Testing
@testable import SensorCore

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's wake (SPEC §17, docs/decisions.md): a datagram to notify's socket nudges the
/// journal followers at once and again after each echo delay, on the injected clock.
@DaemonActor
struct NotifyWakeSocketTests {
    @Test func aWakeNudgesTheFollowersAtOnceAndAgainAfterEachEcho() async throws {
        let directory = TemporaryDirectory(prefix: "sensorwatch-wake")
        let waiter = DescriptorWaiter()
        let socket = try NotifyWakeSocket(path: directory.path("run/wake"), waiter: waiter)
        let clock = ManualClock()
        let listening = Task(executorPreference: DaemonActor.taskExecutor) { await socket.run(clock: clock) }
        defer { listening.cancel() }
        let before = waiter.nudges
        NotifyWakeSender(path: directory.path("run/wake")).send()
        #expect(await eventually { waiter.nudges == before + 1 })
        var elapsed = Duration.zero
        for (i, echo) in NotifyWakeSocket.echoes.enumerated() {
            #expect(await eventually { clock.sleeperCount == 1 })
            clock.advance(by: echo - elapsed)
            elapsed = echo
            #expect(await eventually { waiter.nudges == before + 2 + UInt64(i) })
        }
        #expect(await eventually { clock.sleeperCount == 0 })
    }

    @Test func theSocketIsWritableByEveryoneReplacesAStaleFileAndGoesWithTheListener() throws {
        let directory = TemporaryDirectory(prefix: "sensorwatch-wake")
        let path = directory.path("wake")
        let stale = open(path, O_CREAT | O_WRONLY, 0o600)
        close(stale)
        var socket: NotifyWakeSocket? = try NotifyWakeSocket(path: path, waiter: DescriptorWaiter())
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        #expect(info.st_mode & 0o777 == 0o666)
        _ = socket
        socket = nil
        #expect(access(path, F_OK) != 0)
    }

    /// A second notify that took the path over keeps its socket when the first one stops.
    @Test func aStopRemovesOnlyItsOwnSocketFile() throws {
        let directory = TemporaryDirectory(prefix: "sensorwatch-wake")
        let path = directory.path("wake")
        var first: NotifyWakeSocket? = try NotifyWakeSocket(path: path, waiter: DescriptorWaiter())
        let second = try NotifyWakeSocket(path: path, waiter: DescriptorWaiter())
        _ = first
        first = nil
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK)
        _ = second
    }

    @Test func aPlaceItCannotBeMadeIsAFailureInWords() {
        let directory = TemporaryDirectory(prefix: "sensorwatch-wake")
        let file = directory.path("file")
        close(open(file, O_CREAT | O_WRONLY, 0o600))
        #expect {
            _ = try NotifyWakeSocket(path: file + "/wake", waiter: DescriptorWaiter())
        } throws: { error in
            "\(error)" == "cannot listen for the daemon's wakes at \(file)/wake: Not a directory"
        }
    }

    /// The daemon sends whether or not notify runs: nobody listening is no error and no wait.
    @Test func sendingWithNobodyListeningDoesNothing() {
        let directory = TemporaryDirectory(prefix: "sensorwatch-wake")
        let sender = NotifyWakeSender(path: directory.path("missing/wake"))
        sender.send()
        sender.send()
        // Nothing was made in notify's place: no directory, no socket file.
        #expect(access(directory.path("missing"), F_OK) != 0)
        #expect(errno == ENOENT)
    }
}
