import CLinux
import Glibc
@testable import SensorNotify
@testable import SensorRuntime
import SensorTestKit
import Testing

#if canImport(Glibc)
#endif

/// The daemon's wake (SPEC §17, docs/decisions.md): a datagram to notify's socket nudges the
/// journal followers at once and again after each echo delay, on the injected clock.
@DaemonActor
struct NotifyWakeSocketTests {
    @Test func aWakeNudgesTheFollowersAtOnceAndAgainAfterEachEcho() async throws {
        let directory = TemporaryDirectory(prefix: "sensorwatch-wake")
        let waiter = try DescriptorWaiter()
        let socket = try NotifyWakeSocket(path: directory.path("run/wake"), waiter: waiter)
        let clock = VirtualClock()
        let listening = Task(executorPreference: DaemonActor.taskExecutor) { await socket.run(clock: clock) }
        defer { listening.cancel() }
        let before = waiter.nudged.value
        NotifyWakeSender(path: directory.path("run/wake")).send()
        #expect(await waiter.nudged.until(before + 1))
        var elapsed = Duration.zero
        for (i, echo) in NotifyWakeSocket.echoes.enumerated() {
            // Until the first echo the listener pauses too (coalescing), then waits on the socket.
            #expect(await clock.untilSleepers(i == 0 ? 2 : 1))
            clock.advance(by: echo - elapsed)
            elapsed = echo
            #expect(await waiter.nudged.until(before + 2 + i))
        }
        #expect(await clock.untilSleepers(0))
    }

    /// Datagrams that come while the listener pauses after a wake (anyone can send them) are
    /// drained together at the pause's end and make one nudge, not one each; the pause
    /// doubles while they keep coming, and a quiet pause returns the listener to the socket.
    @Test func aFloodOfWakesIsDrainedInBatchesAndCoalesced() async throws {
        let directory = TemporaryDirectory(prefix: "sensorwatch-wake")
        let path = directory.path("run/wake")
        let waiter = try DescriptorWaiter()
        let socket = try NotifyWakeSocket(path: path, waiter: waiter)
        let clock = VirtualClock()
        let listening = Task(executorPreference: DaemonActor.taskExecutor) { await socket.run(clock: clock) }
        defer { listening.cancel() }
        let sender = NotifyWakeSender(path: path)
        let before = waiter.nudged.value
        sender.send()
        #expect(await waiter.nudged.until(before + 1))
        #expect(await clock.untilSleepers(2))
        // A burst while the listener pauses: no nudge until the pause ends (the listener
        // sleeps on the manual clock, so only advancing it can end the pause).
        for _ in 0..<50 { sender.send() }
        await daemonActorBarrier()
        #expect(waiter.nudged.value == before + 1)
        // Its end (with the first echo): the burst drained at once, one nudge for it.
        clock.advance(by: NotifyWakeSocket.shortestPause)
        #expect(await waiter.nudged.until(before + 2))
        #expect(await clock.untilSleepers(2))
        #expect(waiter.nudged.value <= before + 3)
        // The next pause is twice as long; nothing came in it: one last look (the flood's
        // end), then back to the socket. No echoes were started for the burst: the only
        // sleeper left is the first wake's echo at 25 ms.
        let afterBurst = waiter.nudged.value
        clock.advance(by: NotifyWakeSocket.shortestPause * 2)
        #expect(await waiter.nudged.until(afterBurst + 1))
        #expect(await clock.untilSleepers(1))
        clock.advance(by: .milliseconds(10))
        #expect(await waiter.nudged.until(afterBurst + 2))
        // Waiting on the socket again: a single wake nudges at once.
        sender.send()
        #expect(await waiter.nudged.until(afterBurst + 3))
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
