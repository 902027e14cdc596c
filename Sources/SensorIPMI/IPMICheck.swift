import Glibc
public import SensorConfig
/// What `check` says of a configuration's `ipmi` sources on this machine (SPEC §23):
/// warnings, never errors — the configuration may be meant for another machine.
public enum IPMICheck {
    /// One line per problem: libfreeipmi missing (and the package that has it), an in-band
    /// source without `/dev/ipmi0` (and how to get it).
    public static func warnings(
        _ configuration: Configuration, devicePath: String = "/dev/ipmi0",
        libraryProblem: () -> String? = FreeIPMITransport.libraryProblem
    ) -> [String] {
        let bmcs = configuration.sources.compactMap(\.ipmi)
        guard !bmcs.isEmpty else { return [] }
        var out: [String] = []
        if let problem = libraryProblem() {
            out.append("\(configuration.path): ipmi sources: \(problem)")
        }
        if bmcs.contains(where: { $0.host == nil }), access(devicePath, F_OK) != 0 {
            out.append(
                "\(configuration.path): ipmi source without hosts: "
                    + IPMIFailure(.noDevice).words(bmc: "local", timeout: .seconds(5)))
        }
        return out
    }
}
