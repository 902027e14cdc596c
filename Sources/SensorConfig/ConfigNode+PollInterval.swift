import SensorRuntime

extension ConfigNode {
    /// A poll interval: a duration of at least ``SourceConfiguration/minimumInterval``.
    func pollInterval() -> Duration? {
        guard let d = duration(positive: true) else { return nil }
        guard d >= SourceConfiguration.minimumInterval else {
            report("must be at least 10ms (a shorter poll interval would keep the daemon spinning)")
            return nil
        }
        return d
    }
}
