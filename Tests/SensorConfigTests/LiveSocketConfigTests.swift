@testable import SensorConfig
import SensorTestKit
import Testing

@Suite struct LiveSocketConfigTests {
    @Test func defaultIsTheRuntimeDirectoryAndFalseTurnsItOff() throws {
        let dir = TemporaryDirectory()
        dir.write("a.json5", "{}")
        #expect(try ConfigLoader.load(path: dir.path("a.json5")).liveSocket == .runtimeDirectory)
        dir.write("b.json5", "{ liveSocket: false }")
        #expect(try ConfigLoader.load(path: dir.path("b.json5")).liveSocket == .off)
        dir.write("c.json5", "{ liveSocket: \"/run/x/live.sock\" }")
        #expect(try ConfigLoader.load(path: dir.path("c.json5")).liveSocket == .path("/run/x/live.sock"))
    }

    @Test func checkSaysWhatIsWrong() {
        #expect(
            TemporaryDirectory.configErrors(of: "{ liveSocket: \"live.sock\" }") == [
                "c.json5: liveSocket: must be an absolute path of a file (where `run` listens for watch, top and mqtt), or false"
            ])
        #expect(TemporaryDirectory.configErrors(of: "{ liveSocket: \"/run/\" }").count == 1)
        #expect(
            TemporaryDirectory.configErrors(of: "{ liveSocket: true }") == [
                "c.json5: liveSocket: must be a path or false (true is the default: live.sock in the runtime directory; leave the key out)"
            ])
        #expect(
            TemporaryDirectory.configErrors(of: "{ liveSocket: 3 }") == [
                "c.json5: liveSocket: expected an absolute path or false, found a number"
            ])
        #expect(
            TemporaryDirectory.configErrors(of: "{ liveSocket: \"/\(String(repeating: "x", count: 120))\" }") == [
                "c.json5: liveSocket: is 121 bytes long; a Unix socket's path may have at most 107"
            ])
    }
}
