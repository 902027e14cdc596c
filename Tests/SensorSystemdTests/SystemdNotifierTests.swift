#if canImport(Glibc)
import Glibc
#endif
import SensorCore
import SensorRuntime
@testable import SensorSystemd
import SensorTestKit
import Testing

/// Runs serialized: the notifier reads process-wide environment variables.
@Suite(.serialized)
struct SystemdNotifierTests {
    @Test func sendsEachStatesDatagramToTheNotifySocket() throws {
        let dir = TemporaryDirectory(prefix: "sensorwatch-notify")
        let path = dir.path("notify")
        let fd = FakeJournal.boundDatagramSocket(at: path)
        try #require(fd >= 0)
        defer { close(fd) }
        setenv("NOTIFY_SOCKET", path, 1)
        setenv("WATCHDOG_USEC", "3000000", 1)
        setenv("WATCHDOG_PID", "\(getpid())", 1)
        defer { unsetenv("NOTIFY_SOCKET"); unsetenv("WATCHDOG_USEC"); unsetenv("WATCHDOG_PID") }

        let notifier = SystemdNotifier()
        func received() -> String {
            var buf = [UInt8](repeating: 0, count: 512)
            let n = recv(fd, &buf, buf.count, Int32(MSG_DONTWAIT))
            return String(decoding: buf[..<max(n, 0)], as: UTF8.self)
        }
        notifier.notify(.ready(status: "3 sensors, 0 faults, 1 firing"))
        #expect(received() == "READY=1\nSTATUS=3 sensors, 0 faults, 1 firing")
        let lifecycle = ServiceLifecycle(notifier: notifier, monotonicMicroseconds: { 1_234_567 })
        lifecycle.reloading()
        #expect(received() == "RELOADING=1\nMONOTONIC_USEC=1234567")
        lifecycle.watchdog()
        #expect(received() == "WATCHDOG=1")
        #expect(notifier.watchdogTimeout == .seconds(3))
        #expect(notifier.failures == 0)
    }

    @Test func withoutAServiceManagerItDoesNothing() {
        unsetenv("NOTIFY_SOCKET")
        unsetenv("WATCHDOG_USEC")
        let notifier = SystemdNotifier()
        notifier.notify(.ready(status: nil))
        #expect(notifier.watchdogTimeout == nil)
        #expect(notifier.failures == 0)
    }
}
