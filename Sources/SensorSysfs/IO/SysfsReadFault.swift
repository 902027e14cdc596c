/// Why one attribute gave no value: the reason text of a faulted ``Sample``.
struct SysfsReadFault: Error, Sendable {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
