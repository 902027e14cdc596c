#if canImport(Glibc)
import Glibc
#endif
import CLinux
import SensorConfig
import SensorCore
import SensorLive
import SensorRuntime
import SensorSystemd
import SensorTerminal

/// One run of `top` on a terminal already in its mode (``TermiosGuard``): the loop that takes
/// keys, signals, the stream and the clock's ticks, and draws a frame after them — at most
/// one every ``TopCommand/frameInterval``, only the cells that changed, a full repaint at
/// start, on SIGWINCH and on Ctrl-L.
struct TopSession: Sendable {
    let terminal: any Terminal
    let environment: TerminalEnvironment
    let clock: BootClock
    /// The configuration's rules, for a row's details; nil without a configuration.
    let rules: [Rule]?
    /// Whose journal entries count as the daemon's (a row's transitions, SPEC §17).
    var trust = JournalTrust.daemon
    let follower: LiveFollower
    /// With no daemon at start: the readers and rules run here, and their configuration.
    var standalone: (TopStandalone, Configuration)?
    /// The keys' descriptor.
    var input: Int32 = 0
    /// The time of day (the header's clock, the details' week of history).
    var wallClock: any WallClock = SystemWallClock()
    /// Called once a snapshot is in: gives freed heap memory back to the kernel (glibc's
    /// `malloc_trim`; a thousand sensors' history is megabytes of JSON, parsed once) and
    /// lets go of the read-only pages of the program and its libraries, those the daemon
    /// maps too (``StartupPages/releaseShared()``): the pages `top` uses come back at once.
    var trimMemory: @Sendable () -> Void = {
        _ = sw_malloc_trim(0)
        StartupPages.releaseShared()
    }

    /// Runs until a way out (q, Ctrl-C, a signal that ends it, the terminal gone); returns the
    /// exit status and what to say on stderr once the terminal is restored.
    func run(signals: AsyncStream<Int32>) async -> (ExitCode, String?) {
        let (events, continuation) = AsyncStream.makeStream(of: TopEvent.self)
        let (deadlines, scheduler) = AsyncStream.makeStream(
            of: BootClock.Instant.self, bufferingPolicy: .bufferingNewest(1))
        do {
            try DetachedThread.start("reading keys") { [input] in
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                    if n < 0, errno == EINTR { continue }
                    guard n > 0 else {
                        continuation.yield(.inputClosed)
                        return
                    }
                    if case .terminated = continuation.yield(.input(Array(buffer[0..<n]))) { return }
                }
            }
        } catch {
            return (.osError, "\(error)")
        }
        return await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await s in signals { continuation.yield(.signal(s)) }
            }
            if let (own, configuration) = standalone {
                group.addTask { [clock] in
                    let (never, _) = AsyncStream.makeStream(of: DaemonSignal.self)
                    await own.run(configuration, clock: clock, stop: never)
                }
            }
            group.addTask { [follower] in
                await follower.follow { continuation.yield(.live($0)) }
            }
            group.addTask { [clock, wallClock] in
                // The header's clock: a tick just after each whole second.
                while !Task.isCancelled {
                    let t = wallClock.now.seconds
                    let wait = Int64((1 - (t - t.rounded(.down))) * 1000) + 5
                    do { try await clock.sleep(for: .milliseconds(wait)) } catch { return }
                    continuation.yield(.tick)
                }
            }
            group.addTask { [clock] in
                for await deadline in deadlines {
                    do { try await clock.sleep(until: deadline, tolerance: nil) } catch { return }
                    continuation.yield(.frameDue)
                }
            }
            var loop = TopLoop(session: self, size: terminal.size() ?? TopScreen.minimum)
            if standalone != nil { loop.connection = .standalone }
            let result = await loop.consume(events) { scheduler.yield($0) }
            group.cancelAll()
            continuation.finish()
            scheduler.finish()
            return result
        }
    }

    /// Silences `rule` on `sensor` for `duration` as `silence add --rule R --sensor S --for D`
    /// does (a journal entry); what to show in the status line.
    func silence(rule: String, sensor: String, duration: String) -> String {
        do {
            let options = try Options(
                ["--rule", rule, "--sensor", sensor, "--for", duration], valued: ["rule", "sensor", "for"], flags: [])
            let silence = try SilenceRequest.silence(
                options, now: SystemWallClock().now.microseconds, user: SilenceCommand.userName(), id: Silence.newID())
            try JournalSilenceWriter().write(silence)
            let until = TerminalLine.localClockTime(Double(silence.endsMicroseconds) / 1e6)
            guard getuid() == 0 else {
                // What `silence add` notes, first: the line is cut at the screen's edge.
                return
                    "not root (uid \(getuid())): the silence of \(rule) is written, but notify and status ignore it unless the trust list names you"
            }
            return "silenced \(rule) on \(sensor) until " + until
        } catch {
            return "cannot silence: \(error)"
        }
    }

    /// The details of `row`: its rules, limits, alerts and last transitions from the journal.
    func details(_ row: TopRow) -> [String] {
        let since = wallClock.now.advanced(by: .seconds(-7 * 86400)).microseconds
        let history: Result<[JournalAlertRecord], SystemError>
        do {
            history = .success(
                try JournalHistoryReader(trust: trust).read(.init(sinceMicroseconds: since, sensor: row.id)))
        } catch {
            history = .failure(error)
        }
        return TopDetails.lines(row, rules: rules, history: history) { TerminalLine.localClockTime($0) }
    }
}
