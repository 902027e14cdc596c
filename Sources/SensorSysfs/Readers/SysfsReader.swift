public import SensorConfig
public import SensorCore
public import SensorRuntime
import Synchronization

/// Reads a sysfs source with the scan of its kind (SPEC §4): thermal zones
/// (`thermal:<type>`, label `type`, °C from millidegrees), hwmon temperatures and humidities
/// (`hwmon:<chip>/tempN`, `hwmon:<chip>/humidityN`), IIO temperature, humidity and pressure
/// channels (`iio:<name>/temp`, hPa from kPa).
///
/// Each attribute is opened once and re-read with `pread` at offset 0; a failed read
/// is a fault sample for that sensor only (errno, `empty`, `not a number`, out of range).
/// `discover()` rescans the root, picks up new sensors, drops vanished ones and closes
/// their files; `poll(at:)` discovers first if nobody has yet.
///
/// The sensor set and its I/O form a *generation*, because a read can block in the kernel
/// for as long as a driver likes and nothing interrupts it: when a call has been stuck in
/// one file for ``patience`` (``isolateBlockedRead(now:)``, asked by the poller's stall
/// watch), that generation is given up to the thread stuck in it, the file goes into
/// ``HungFiles``, and a fresh generation takes over, which discovers again and reads the
/// blocked file as a fault without touching it. The stuck thread does no more I/O when its
/// read returns; it closes its generation's files and its results are dropped (SPEC §8).
public final class SysfsReader: SensorReader, Sendable {
    /// The id prefix of this reader's sensors (`thermal`, `hwmon`, `iio`).
    public let source: String

    /// Reads `configuration.root` through the real system calls.
    public convenience init(configuration: SourceConfiguration) {
        self.init(configuration: configuration, io: PosixSysfsIO())
    }

    /// Reads `configuration.root` through `io` (tests inject errnos there).
    public init(configuration: SourceConfiguration, io: any SysfsIO) {
        source = configuration.kind.idPrefix
        scan =
            switch configuration.kind {
            case .thermal: ThermalZoneScanner.scan
            case .hwmon: HwmonScanner.scan
            case .iio: IIOScanner.scan
            // Not a sysfs source (SensorCLI gives it a SimulatedReader or a BMC
            // reader): nothing to find.
            case .simulated, .ipmi: { _, _, _ in [] }
            }
        self.configuration = configuration
        self.io = io
        live = Mutex(Generation(io: GuardedSysfsIO(base: io, hung: hung)))
    }

    /// A sensor set and the I/O it reads through; replaced, never reused, after a hang.
    private final class Generation: Sendable {
        let io: GuardedSysfsIO
        let set = Mutex(SysfsSensorSet())
        init(io: GuardedSysfsIO) { self.io = io }
    }

    /// How long a call must stay in one file to count as blocked. A slow poll moves from file
    /// to file; only one that stops for a whole second is taken for a hang (SPEC §8: a hung
    /// sensor is a fault within 2 s; the watch looks every quarter second). Not shorter: a
    /// DS18B20 on 1-Wire takes 750 ms for one reading, and is not hung.
    static let patience: Duration = .seconds(1)

    /// The system calls, as injected (tests fail chosen reads there).
    let io: any SysfsIO
    private let configuration: SourceConfiguration
    /// Lists the channels under the root; the last discovery's channels (their files not open)
    /// are passed in for the devices that sleep, whose files a scan must not read (SPEC §20).
    private let scan: @Sendable (SourceConfiguration, any SysfsIO, _ previous: [SysfsChannel]) -> [SysfsChannel]
    private let hung = HungFiles()
    private let live: Mutex<Generation>
    /// What the last discovery left out (chips and devices whose name blocked).
    private let left = Mutex<[String]>([])
    /// The root's entries (their fingerprint) when the last discovery began
    /// (``devicesChanged()``); nil when it could not be read.
    private let rootEntries = Mutex<UInt64?>(nil)
    /// The call the watch saw last, and when it first saw it.
    private let seen = Mutex<(look: GuardedSysfsIO.Look, since: Timestamp)?>(nil)

    deinit {
        let generation = live.withLock { $0 }
        generation.set.withLock { $0.closeAll(io: generation.io) }
    }

    private var current: Generation { live.withLock { $0 } }

    /// Rescans the root (new and vanished sensors); returns the sensors in id order.
    public func discover() -> [SensorInfo] {
        let generation = current
        return generation.set.withLock { set in
            rescan(&set, generation.io)
            closeIfAbandoned(&set, generation.io)
            return set.channels.map(\.info)
        }
    }

    /// Reads every sensor once (discovering first if nobody has yet): one reading each, in
    /// the order of the last `discover()`, a fault with its reason where the read fails.
    public func poll(at time: Timestamp) -> [SensorValues] {
        let generation = current
        return generation.set.withLock { set in
            if !set.discovered { rescan(&set, generation.io) }
            let values = set.poll(at: time, io: generation.io)
            closeIfAbandoned(&set, generation.io)
            return [values]
        }
    }

    /// Gives up a discovery or poll stuck in one file for a second (see ``SensorReader``).
    ///
    /// Called from another thread while a ``discover()`` or ``poll(at:)`` runs: when that
    /// call has been in the same file since a look at least ``patience`` ago, gives its
    /// generation up and returns true (the caller must drop that call's result, and may
    /// call again at once from another thread); else notes what it saw and returns false.
    public func isolateBlockedRead(now: Timestamp) -> Bool {
        let generation = current
        guard let look = generation.io.look() else {
            seen.withLock { $0 = nil }
            return false
        }
        let due = seen.withLock { seen -> Bool in
            guard let (before, since) = seen, before == look else {
                seen = (look, now)
                return false
            }
            return now - since >= Self.patience
        }
        guard due, generation.io.abandon(look) else { return false }
        seen.withLock { $0 = nil }
        live.withLock { $0 = Generation(io: GuardedSysfsIO(base: io, hung: hung)) }
        return true
    }

    /// The sensors of the last discovery, in the order polls follow.
    var listed: [SensorInfo] {
        let generation = current
        return generation.set.withLock { $0.channels.map(\.info) }
    }

    /// The sensors of the last discovery that are thermal zones the kernel exports through
    /// hwmon too (`CONFIG_THERMAL_HWMON`), each with the zone's `thermal:` id: one sensor
    /// under two ids when both sources are configured (none for other kinds).
    public func thermalMirrors() -> [SensorID: SensorID] {
        current.set.withLock { set in
            var out: [SensorID: SensorID] = [:]
            for channel in set.channels { if let zone = channel.mirrors { out[channel.info.id] = zone } }
            return out
        }
    }

    /// The chips or devices the last discovery left out because their name blocked.
    public var leftOut: [String] { left.withLock { $0 } }

    /// Whether the root lists other entries than when the last discovery began: a device
    /// appeared or went (SPEC §20); or a device that slept woke since then. The names are compared (as a fingerprint), not the
    /// directory's mtime, which kernfs does not reliably update, and a listing means the
    /// same on sysfs and on the tmpfs test trees (its cost: bench/README.md).
    /// A look that cannot be taken (no descriptor left, `Too many open files`) says nothing:
    /// rediscovering then would read the devices' names without descriptors and rename them,
    /// which the next look would see as devices going and coming, every second.
    public func devicesChanged() -> Bool {
        // A device that woke since the discovery has its names, labels and limits read now,
        // not at the minute's rediscovery: they were not read while it slept.
        if current.set.withLock({ $0.wokeSinceDiscovery }) { return true }
        guard let now = SysfsTree.fingerprint(configuration.root) else { return false }
        return now != rootEntries.withLock { $0 }
    }

    private func rescan(_ set: inout SysfsSensorSet, _ io: GuardedSysfsIO) {
        // Before the scan: a device that comes during it is seen at the next poll.
        let entries = SysfsTree.fingerprint(configuration.root)
        rootEntries.withLock { $0 = entries }
        hung.revalidate()
        _ = io.takeBlockedAsked()
        var found = scan(configuration, io, set.channels.map(\.unopened))
            .filter { configuration.admits($0.info.id) }
            .sorted { $0.info.id < $1.info.id }
        for i in found.indices { found[i].plausible = configuration.plausible }
        set.replace(with: found, io: io)
        // A blocked label faults its own sensor; a blocked chip or device name leaves the
        // chip out (its sensors' ids depend on it), which only this line tells.
        let names = Set(io.takeBlockedAsked().filter { $0.hasSuffix("/name") })
        left.withLock {
            $0 = names.sorted().map { $0 + ": " + HungFiles.reason + "; its sensors are left out until it answers" }
        }
    }

    /// A given-up generation's files are closed by the thread that was stuck in it, once
    /// its call returns (the blocked file's descriptor among them: it is opened afresh).
    private func closeIfAbandoned(_ set: inout SysfsSensorSet, _ io: GuardedSysfsIO) {
        if io.isAbandoned { set.closeAll(io: io) }
    }
}
