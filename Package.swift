// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "sensorwatch",
    products: [
        .executable(name: "sensorwatch", targets: ["sensorwatch"]),
    ],
    targets: [
        // libsystemd through pkg-config; only SensorSystemd imports it.
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // libcurl's headers (Debian libcurl4-openssl-dev, in the default include path); no
        // pkgConfig, whose `-lcurl` would link it into every subcommand (see CurlLoader).
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // The HTTP POST of `notify`'s alertmanager targets: libcurl opened with dlopen on first
        // use, so only `notify` ever loads it.
        .target(name: "CurlLoader", dependencies: ["CCurl"], linkerSettings: [.linkedLibrary("dl")]),
        // The HTTP client of `notify` (SPEC §17): the only importer of CurlLoader.
        .target(name: "SensorHTTP", dependencies: ["SensorNotify", "CurlLoader", "SensorConfig", "SensorRuntime"]),
        // libmosquitto opened with dlopen by `mqtt` only; the loader declares the few functions it
        // calls, so no header package is needed to build (see MosquittoLoader).
        .target(name: "MosquittoLoader", linkerSettings: [.linkedLibrary("dl")]),
        // `mqtt` (SPEC §24): the daemon's live stream to an MQTT broker, Home Assistant discovery.
        .target(name: "SensorMQTT", dependencies: ["SensorCore", "SensorLive", "MosquittoLoader", "SensorConfig", "SensorRuntime"]),
        // libfreeipmi opened with dlopen on a BMC source's first session (its prototypes
        // declared in the C file: no libfreeipmi-dev needed to build).
        .target(name: "FreeIPMILoader", linkerSettings: [.linkedLibrary("dl")]),
        // BMC sensors over IPMI (SPEC §23): the only importer of FreeIPMILoader.
        .target(name: "SensorIPMI", dependencies: ["SensorCore", "FreeIPMILoader", "SensorConfig", "SensorRuntime"]),
        // The few glibc calls Swift's Glibc module does not import, and the batched read.
        .target(name: "CLinux"),
        // The runtime that knows no sensor: clocks, concurrency, persistence, logging, JSON5
        // and JSON, services, and the small text and file helpers.
        .target(name: "SensorRuntime", dependencies: ["CLinux"]),
        // The domain: the model, rules, events, limits, derived sensors, sinks, state, status.
        .target(name: "SensorCore", dependencies: ["SensorRuntime"]),
        // The configuration file read into the domain's types (SPEC §3), with its diagnostics.
        .target(name: "SensorConfig", dependencies: ["SensorCore", "SensorRuntime"]),
        // Scenarios, the simulated reader, virtual time, recording, and rule tests.
        .target(name: "SensorSimulation", dependencies: ["SensorCore", "SensorConfig", "SensorRuntime", "SensorDaemon"]),
        // The daemon: its services in one group, the pollers, the rule loop, metrics, status.
        .target(name: "SensorDaemon", dependencies: ["SensorCore", "SensorConfig", "SensorRuntime"]),
        // The sysfs plumbing: files read with guards against hung and hostile ones, the names
        // of chips and zones, discovery, and the thermal, hwmon and iio readers.
        .target(name: "SensorSysfs", dependencies: ["SensorCore", "CLinux", "SensorConfig", "SensorRuntime"]),
        // `notify` (SPEC §17): events, lanes, deliveries (exec, Alertmanager through an
        // injected HTTPPoster), its state file and wake socket; no libsystemd, no libcurl.
        .target(name: "SensorNotify", dependencies: ["SensorCore", "CLinux", "SensorConfig", "SensorRuntime"]),
        // Journal sink, sd_notify, journal history: the only importer of CSystemd.
        .target(name: "SensorSystemd", dependencies: ["SensorCore", "SensorNotify", "CSystemd", "SensorConfig", "SensorRuntime"]),
        // The terminal layer of `top` (SPEC §22): a cell grid drawn by difference, keys,
        // termios, sparklines; no ncurses.
        .target(name: "SensorTerminal", dependencies: ["SensorRuntime"]),
        // The live stream (SPEC §22): its messages, the daemon's server, and the client side
        // (connection and model) that watch, top and mqtt share.
        .target(name: "SensorLive", dependencies: ["SensorCore", "CLinux", "SensorConfig", "SensorDaemon", "SensorRuntime"]),
        // Subcommands, argument parsing, output formatting (testable, unlike main.swift).
        .target(name: "SensorCLI", dependencies: ["SensorCore", "SensorLive", "SensorSysfs", "SensorNotify", "SensorSystemd", "SensorHTTP", "SensorTerminal", "SensorMQTT", "SensorIPMI", "CLinux", "SensorConfig", "SensorDaemon", "SensorRuntime", "SensorSimulation"]),
        .executableTarget(name: "sensorwatch", dependencies: ["SensorCLI"]),
        // Fakes and temporary trees the test targets share (clock, readers, sysfs trees);
        // public API of SensorCore and SensorSysfs only, so it also builds in release.
        .target(name: "SensorTestKit", dependencies: ["SensorCore", "SensorSysfs", "SensorRuntime"], path: "Tests/SensorTestKit"),
        .testTarget(name: "SensorCoreTests", dependencies: ["SensorCore", "SensorTestKit", "SensorConfig", "SensorDaemon", "SensorRuntime", "SensorSimulation", "SensorSysfs"]),
        .testTarget(name: "SensorSysfsTests", dependencies: ["SensorSysfs", "SensorCore", "SensorTestKit", "SensorConfig", "SensorDaemon", "SensorRuntime"]),
        .testTarget(name: "SensorNotifyTests", dependencies: ["SensorNotify", "SensorCore", "SensorTestKit", "CLinux", "SensorConfig", "SensorRuntime"]),
        .testTarget(name: "SensorHTTPTests", dependencies: ["SensorHTTP", "SensorNotify", "SensorRuntime"]),
        .testTarget(name: "SensorSystemdTests", dependencies: ["SensorSystemd", "SensorCore", "SensorTestKit", "SensorConfig", "SensorNotify", "SensorRuntime"]),
        .testTarget(name: "SensorTerminalTests", dependencies: ["SensorTerminal"]),
        .testTarget(name: "SensorLiveTests", dependencies: ["SensorLive", "SensorCore", "SensorTestKit", "CLinux", "SensorConfig", "SensorDaemon", "SensorRuntime"]),
        .testTarget(name: "SensorMQTTTests", dependencies: ["SensorMQTT", "SensorLive", "SensorCore", "SensorTestKit", "SensorRuntime"]),
        .testTarget(name: "SensorIPMITests", dependencies: ["SensorIPMI", "SensorCore", "SensorTestKit", "SensorConfig", "SensorRuntime"]),
        .testTarget(name: "SensorCLITests", dependencies: ["SensorCLI", "SensorCore", "SensorLive", "SensorTerminal", "SensorTestKit", "SensorConfig", "SensorIPMI", "SensorNotify", "SensorRuntime", "SensorSimulation", "SensorSystemd"]),
    ],
    swiftLanguageModes: [.v6]
)

// The upcoming features the Swift server anchors enable (docs/development.md): `any` spelled
// out, imports that say what they expose, and members visible only through what a file imports.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
    ]
}

