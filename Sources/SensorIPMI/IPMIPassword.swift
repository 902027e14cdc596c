public import SensorConfig
/// Reads a BMC's password (SPEC §23) when a session opens, by ``SecretSource`` (the one way
/// secrets are read), as the failure a session reports: never kept in the configuration.
public enum IPMIPassword {
    /// The password for `settings`; in band, none is needed (empty).
    public static func read(
        _ settings: IPMISourceSettings, credentialsDirectory: String? = SecretSource.credentialsDirectory
    ) throws(IPMIFailure) -> String {
        guard let source = settings.password else { return "" }
        switch source.read(credentialsDirectory: credentialsDirectory) {
        case .success(let password): return password
        case .failure(let failure): throw IPMIFailure(.secret, failure.message)
        }
    }
}
