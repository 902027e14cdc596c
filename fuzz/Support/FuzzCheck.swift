#if canImport(Glibc)
import Glibc
#endif

/// Stops the fuzzer with a report when an invariant does not hold.
///
/// libFuzzer treats the abort like a crash: it saves the input as `crash-<sha1>` and prints it.
/// A plain `precondition` would do the same, but this names the target and what was broken.
func fuzzCheck(_ condition: Bool, _ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    guard !condition else { return }
    let text = "invariant failed at \(file):\(line): \(what())\n"
    text.utf8CString.withUnsafeBufferPointer { _ = write(2, $0.baseAddress, $0.count - 1) }
    abort()
}

/// The fuzzer's input as an array (empty when libFuzzer passes no bytes).
func fuzzBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}
