#if canImport(Glibc)
import Glibc
#endif
import SensorCore
import SensorRuntime
import SensorTestKit
import Testing

/// The shared test helpers do what the tests rely on (they have no test target of their own).
struct SensorTestKitTests {
    @Test func aTemporaryDirectoryIsRemovedWithItsContentWhenReleased() {
        var files: TemporaryDirectory? = TemporaryDirectory()
        let directory = files!.root
        files!.write("a/b/c.txt", "x")
        files = nil
        #expect(access(directory, F_OK) != 0)
    }

    @Test func aBoundedWaitGivesTheValueOfATaskThatEnds() async {
        let task = Task { 42 }
        #expect(await task.value(within: .seconds(10)) == 42)
    }

    @Test func aBoundedWaitGivesNilForATaskThatDoesNotEnd() async {
        let stuck = Task { try? await Task.sleep(for: .seconds(3600)) }
        #expect(await stuck.value(within: .milliseconds(20)) == nil)
        stuck.cancel()
    }

    @Test func aBoundedWaitGivesUpOnATaskThatIgnoresCancellation() async {
        let release = ChangeSignal()
        let deaf = Task { await release.wait() }
        #expect(await deaf.value(within: .milliseconds(20)) == nil)
        release.fire()
        #expect(await deaf.value(within: .seconds(10)) != nil)
    }

    @Test func eventuallyReportsAConditionThatNeverHolds() async {
        #expect(await eventually(within: .milliseconds(20)) { false } == false)
        #expect(await eventually { true })
    }
}
