import Glibc
@testable import SensorCore
import SensorRuntime
import Testing

/// A fault keeps the errno of a failed system call, and its text is what the journal and
/// `status` have always shown.
struct ReadFaultTests {
    @Test func aSystemFaultKeepsItsErrnoAndReadsAsTheNameAndTheWords() {
        let fault = ReadFault.system(errno: EMFILE)
        #expect(fault.errno == EMFILE)
        #expect(fault.description == "EMFILE (Too many open files)")
    }

    @Test func aReasonInWordsHasNoErrnoEvenWhenItReadsLikeOne() {
        let fault: ReadFault = "EMFILE (Too many open files)"
        #expect(fault.errno == nil)
        #expect(fault != .system(errno: EMFILE))
    }

    @Test func aReadingCarriesItsTypedFaultToItsSample() {
        var values = SensorValues(time: .zero, capacity: 2)
        values.appendFault(.system(errno: EIO))
        values.append(21.5)
        #expect(values.faults == [0: .system(errno: EIO)])
        #expect(values.sample(at: 0, of: "sim:a")?.fault == .system(errno: EIO))
    }
}
