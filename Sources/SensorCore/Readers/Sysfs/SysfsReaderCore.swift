import Synchronization

/// What the three sysfs readers share: the lock, the sensor set, discovery and polling.
///
/// `scan` lists the channels under the reader's root; the core filters them through the
/// source's `include`/`exclude`, sorts them by id and keeps descriptors across rescans.
/// Discovery and polling of one reader take the same lock, so a read blocked in a driver
/// also holds up that reader's next discovery — never another reader's.
final class SysfsReaderCore: Sendable {
    let io: any SysfsIO
    private let configuration: SourceConfiguration
    private let scan: @Sendable (SourceConfiguration, any SysfsIO) -> [SysfsChannel]
    private let state = Mutex(SysfsSensorSet())

    init(
        configuration: SourceConfiguration, io: any SysfsIO,
        scan: @escaping @Sendable (SourceConfiguration, any SysfsIO) -> [SysfsChannel]
    ) {
        self.configuration = configuration
        self.io = io
        self.scan = scan
    }

    deinit {
        let io = self.io
        state.withLock { $0.closeAll(io: io) }
    }

    func discover() -> [SensorInfo] {
        state.withLock { set in
            rescan(&set)
            return set.channels.map(\.info)
        }
    }

    /// Reads every channel of the last discovery (discovering first if none ran yet).
    func poll(at time: Timestamp) -> SensorValues {
        state.withLock { set in
            if !set.discovered { rescan(&set) }
            return set.poll(at: time, io: io)
        }
    }

    /// The sensors of the last discovery, in the order polls follow.
    var listed: [SensorInfo] { state.withLock { $0.channels.map(\.info) } }

    /// The thermal zone each sensor of the last discovery mirrors, where it is one
    /// (``SysfsChannel/mirrors``).
    func mirrors() -> [SensorID: SensorID] {
        state.withLock { set in
            var out: [SensorID: SensorID] = [:]
            for channel in set.channels { if let zone = channel.mirrors { out[channel.info.id] = zone } }
            return out
        }
    }

    private func rescan(_ set: inout SysfsSensorSet) {
        let found = scan(configuration, io)
            .filter { configuration.admits($0.info.id) }
            .sorted { $0.info.id < $1.info.id }
        set.replace(with: found, io: io)
    }
}
