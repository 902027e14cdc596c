extension StateStore {
    /// What `StateStore.load()` found: the kept alerts and, if the file was bad, why.
    public struct LoadResult: Hashable, Sendable {
        /// The alerts that were firing when the state was last saved; empty if none or unusable.
        public var alerts: [PersistedAlert]
        /// The last System Event Log record seen of each BMC (SPEC §23); empty if none.
        public var eventLog: [String: Int]
        /// A problem to log (priority warning), e.g. a corrupt file set aside; nil if all was well
        /// (a missing file is normal on first start and is not a problem).
        public var problem: String?
        /// Where a bad file was moved to, if it was.
        public var setAsidePath: String?

        /// A result of the given fields.
        public init(
            alerts: [PersistedAlert], eventLog: [String: Int] = [:], problem: String? = nil, setAsidePath: String? = nil
        ) {
            self.alerts = alerts
            self.eventLog = eventLog
            self.problem = problem
            self.setAsidePath = setAsidePath
        }
    }
}
