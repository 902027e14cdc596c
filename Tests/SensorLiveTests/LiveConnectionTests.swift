import CLinux
import Glibc
import SensorCore
@testable import SensorLive
import SensorRuntime
import SensorTestKit
import Synchronization
import Testing
@testable import SensorConfig
#if canImport(Glibc)
#endif

@Suite struct LiveConnectionTests {
    /// A listening socket in a temporary directory, and the accepted end of one connection.
    final class Server {
        let dir = TemporaryDirectory()
        let path: String
        let listener: Int32

        init() {
            path = dir.path("live.sock")
            listener = sw_stream_listen(path, 0o666, 4)
        }

        func accept() -> Int32 {
            var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 1, 5000)
            return Glibc.accept(listener, nil, nil)
        }

        func send(_ fd: Int32, _ text: String) {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        func readLine(_ fd: Int32) -> String {
            var out: [UInt8] = []
            var c: UInt8 = 0
            while read(fd, &c, 1) == 1, c != 10 { out.append(c) }
            return String(decoding: out, as: UTF8.self)
        }

        deinit { close(listener) }
    }

    @Test func sendsTheSubscriptionAndDeliversMessagesUntilTheDaemonCloses() async throws {
        let server = Server()
        let subscription = LiveSubscription(sensors: [try Glob("thermal:*")])
        let connection = try LiveConnection(path: server.path, subscription: subscription)
        let peer = server.accept()
        #expect(server.readLine(peer) == subscription.line)
        let hello = LiveMessage.hello(LiveHello(host: "h", pid: 7, started: 1))
        let change = LiveMessage.change(LiveChange(time: 2, gone: ["x"]))
        server.send(peer, hello.line + "\n" + change.line + "\n")
        close(peer)
        var got: [LiveMessage] = []
        for try await m in connection.messages() { got.append(m) }
        #expect(got == [hello, change])
    }

    @Test func closeEndsABlockedReadPromptly() async throws {
        let server = Server()
        let connection = try LiveConnection(path: server.path)
        let peer = server.accept()
        defer { close(peer) }
        let stream = connection.messages()
        let ended = EventCount()
        let reader = Task {
            for try await _ in stream {}
            ended.increment()
        }
        connection.close()
        #expect(await ended.until(1, within: .seconds(5)))
        _ = try? await reader.value
    }

    @Test func aBadLineEndsTheStreamWithAProtocolError() async throws {
        let server = Server()
        let connection = try LiveConnection(path: server.path)
        let peer = server.accept()
        server.send(peer, "{\"type\":\"nonsense\"}\n")
        close(peer)
        await #expect(throws: LiveProtocolError.self) { for try await _ in connection.messages() {} }
    }

    @Test func aSlowConsumerLeavesTheRestInTheSocketAndLosesNothing() async throws {
        let server = Server()
        let connection = try LiveConnection(path: server.path)
        let peer = server.accept()
        // A small send buffer: what the reader does not take stays with the writer.
        var small: Int32 = 4096
        setsockopt(peer, SOL_SOCKET, SO_SNDBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        let lines = 20000
        let line = { @Sendable (i: Int) in
            LiveMessage.change(LiveChange(time: Double(i), gone: ["thermal:zone\(i)"])).line + "\n"
        }
        let lineBytes = line(lines).utf8.count
        let written = Mutex(0)
        let writerDone = EventCount()
        try DetachedThread.start("test writer") {
            defer {
                close(peer)
                writerDone.increment()
            }
            for i in 0..<lines {
                let bytes = Array(line(i).utf8)
                let n = bytes.withUnsafeBytes { Glibc.send(peer, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard n == bytes.count else { return }
                written.withLock { $0 += n }
            }
        }
        let channel = LiveMessageChannel(capacity: 4)
        var iterator = connection.messages(through: channel).makeAsyncIterator()
        #expect(try await iterator.next() == .change(LiveChange(time: 0, gone: ["thermal:zone0"])))
        // The consumer takes nothing more: the reader fills its few places and stops reading.
        #expect(await channel.fullWaits.until(1))
        #expect(channel.buffered <= 4)
        // What went: the places, one read's chunk and the socket's buffers, never the whole.
        #expect(written.withLock { $0 } < 512 * 1024)
        #expect(written.withLock { $0 } < lines * lineBytes / 2)
        var next = 1
        while let message = try await iterator.next() {
            #expect(message == .change(LiveChange(time: Double(next), gone: ["thermal:zone\(next)"])))
            next += 1
        }
        #expect(next == lines)
        #expect(await writerDone.until(1))
    }

    @Test func lettingTheMessagesGoClosesTheConnection() async throws {
        let server = Server()
        let connection = try LiveConnection(path: server.path)
        let peer = server.accept()
        defer { close(peer) }
        server.send(peer, LiveMessage.change(LiveChange(time: 1, gone: ["x"])).line + "\n")
        for try await _ in connection.messages() { break }
        // The daemon's side sees the end (recv returns 0) once the iteration is let go.
        var fds = [pollfd(fd: peer, events: Int16(POLLIN), revents: 0)]
        #expect(poll(&fds, 1, 10000) == 1)
        var byte: UInt8 = 0
        #expect(recv(peer, &byte, 1, Int32(MSG_DONTWAIT)) == 0)
    }

    @Test func noDaemonSaysSo() {
        let dir = TemporaryDirectory()
        #expect {
            _ = try LiveConnection(path: dir.path("none.sock"))
        } throws: { ($0 as? SystemError).map(LiveConnection.daemonAbsent) == true }
    }

    @Test func theSocketIsFoundByTheRuntimeDirectoryRuleUnlessConfigured() {
        #expect(LiveSocketPath.client(.off) == nil && LiveSocketPath.daemon(.off) == nil)
        #expect(LiveSocketPath.client(.path("/x/y.sock")) == "/x/y.sock")
        #expect(LiveSocketPath.client(.runtimeDirectory)?.hasSuffix("/live.sock") == true)
    }
}
