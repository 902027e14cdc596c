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
        .target(name: "SensorHTTP", dependencies: ["SensorRuntime", "SensorConfig", "SensorNotify", "CurlLoader"]),
        // libmosquitto opened with dlopen by `mqtt` only; the loader declares the few functions it
        // calls, so no header package is needed to build (see MosquittoLoader).
        .target(name: "MosquittoLoader", linkerSettings: [.linkedLibrary("dl")]),
        // `mqtt` (SPEC §24): the daemon's live stream to an MQTT broker, Home Assistant discovery.
        .target(name: "SensorMQTT", dependencies: ["SensorRuntime", "SensorCore", "SensorConfig", "SensorLive", "MosquittoLoader"]),
        // libfreeipmi opened with dlopen on a BMC source's first session (its prototypes
        // declared in the C file: no libfreeipmi-dev needed to build).
        .target(name: "FreeIPMILoader", linkerSettings: [.linkedLibrary("dl")]),
        // BMC sensors over IPMI (SPEC §23): the only importer of FreeIPMILoader.
        .target(name: "SensorIPMI", dependencies: ["SensorRuntime", "SensorCore", "SensorConfig", "FreeIPMILoader"]),
        // The few glibc calls Swift's Glibc module does not import, and the batched read.
        .target(name: "CLinux"),
        // The runtime that knows no sensor: clocks, concurrency, persistence, logging, JSON5
        // and JSON, services, and the small text and file helpers.
        .target(name: "SensorRuntime", dependencies: ["CLinux"]),
        // The domain: the model, rules, events, limits, derived sensors, sinks, state, status.
        .target(name: "SensorCore", dependencies: ["SensorRuntime"]),
        // The configuration file read into the domain's types (SPEC §3), with its diagnostics.
        .target(name: "SensorConfig", dependencies: ["SensorRuntime", "SensorCore"]),
        // Scenarios, the simulated reader, virtual time, recording, and rule tests.
        .target(name: "SensorSimulation", dependencies: ["SensorRuntime", "SensorCore", "SensorConfig", "SensorDaemon"]),
        // The daemon: its services in one group, the pollers, the rule loop, metrics, status.
        .target(name: "SensorDaemon", dependencies: ["SensorRuntime", "SensorCore", "SensorConfig"]),
        // The sysfs plumbing: files read with guards against hung and hostile ones, the names
        // of chips and zones, discovery, and the thermal, hwmon and iio readers.
        .target(name: "SensorSysfs", dependencies: ["SensorRuntime", "SensorCore", "SensorConfig", "CLinux"]),
        // `notify` (SPEC §17): events, lanes, deliveries (exec, Alertmanager through an
        // injected HTTPPoster), its state file and wake socket; no libsystemd, no libcurl.
        .target(name: "SensorNotify", dependencies: ["SensorRuntime", "SensorCore", "SensorConfig", "CLinux"]),
        // Journal sink, sd_notify, journal history: the only importer of CSystemd.
        .target(name: "SensorSystemd", dependencies: ["SensorRuntime", "SensorCore", "SensorConfig", "SensorNotify", "CSystemd"]),
        // The terminal layer of `top` (SPEC §22): a cell grid drawn by difference, keys,
        // termios, sparklines; no ncurses.
        .target(name: "SensorTerminal", dependencies: ["SensorRuntime"]),
        // The live stream (SPEC §22): its messages, the daemon's server, and the client side
        // (connection and model) that watch, top and mqtt share.
        .target(name: "SensorLive", dependencies: ["SensorRuntime", "SensorCore", "SensorConfig", "SensorDaemon", "CLinux"]),
        // `simulate --plot`: a run drawn as SVG, a panel a sensor, its alerts and thresholds.
        .target(name: "SensorPlot", dependencies: ["SensorRuntime", "SensorCore"]),
        // Subcommands, argument parsing, output formatting (testable, unlike main.swift).
        .target(name: "SensorCLI", dependencies: ["SensorRuntime", "SensorCore", "SensorConfig", "SensorSimulation", "SensorDaemon", "SensorSysfs", "SensorNotify", "SensorSystemd", "SensorHTTP", "SensorLive", "SensorTerminal", "SensorIPMI", "SensorMQTT", "CLinux", "SensorPlot"]),
        .executableTarget(name: "sensorwatch", dependencies: ["SensorCLI"]),
        // Fakes and temporary trees the test targets share (clock, readers, sysfs trees,
        // configurations); public API only, so it also builds in release.
        .target(name: "SensorTestKit", dependencies: ["SensorRuntime", "SensorCore", "SensorConfig", "SensorSysfs"], path: "Tests/SensorTestKit"),
        .testTarget(name: "SensorRuntimeTests", dependencies: ["SensorRuntime", "SensorCore", "SensorConfig", "SensorSimulation", "SensorDaemon", "SensorTestKit"]),
        .testTarget(name: "SensorCoreTests", dependencies: ["SensorCore", "SensorRuntime", "SensorConfig", "SensorSimulation", "SensorDaemon", "SensorSysfs", "SensorTestKit"]),
        .testTarget(name: "SensorConfigTests", dependencies: ["SensorConfig", "SensorRuntime", "SensorCore", "SensorSimulation", "SensorTestKit"]),
        .testTarget(name: "SensorSimulationTests", dependencies: ["SensorSimulation", "SensorRuntime", "SensorCore", "SensorConfig", "SensorDaemon", "SensorTestKit"]),
        .testTarget(name: "SensorDaemonTests", dependencies: ["SensorDaemon", "SensorRuntime", "SensorCore", "SensorConfig", "SensorTestKit"]),
        .testTarget(name: "SensorSysfsTests", dependencies: ["SensorSysfs", "SensorRuntime", "SensorCore", "SensorConfig", "SensorDaemon", "SensorTestKit"]),
        .testTarget(name: "SensorNotifyTests", dependencies: ["SensorNotify", "SensorRuntime", "SensorCore", "SensorConfig", "SensorTestKit", "CLinux"]),
        .testTarget(name: "SensorHTTPTests", dependencies: ["SensorHTTP", "SensorRuntime", "SensorNotify"]),
        .testTarget(name: "SensorSystemdTests", dependencies: ["SensorSystemd", "SensorRuntime", "SensorCore", "SensorConfig", "SensorNotify", "SensorTestKit"]),
        .testTarget(name: "SensorTerminalTests", dependencies: ["SensorTerminal"]),
        .testTarget(name: "SensorPlotTests", dependencies: ["SensorPlot", "SensorConfig", "SensorCore", "SensorRuntime", "SensorSimulation"]),
        .testTarget(name: "SensorLiveTests", dependencies: ["SensorLive", "SensorRuntime", "SensorCore", "SensorConfig", "SensorDaemon", "SensorTestKit", "CLinux"]),
        .testTarget(name: "SensorMQTTTests", dependencies: ["SensorMQTT", "SensorRuntime", "SensorCore", "SensorLive", "SensorTestKit"]),
        .testTarget(name: "SensorIPMITests", dependencies: ["SensorIPMI", "SensorRuntime", "SensorCore", "SensorConfig", "SensorTestKit"]),
        .testTarget(name: "SensorCLITests", dependencies: ["SensorCLI", "SensorRuntime", "SensorCore", "SensorConfig", "SensorSimulation", "SensorNotify", "SensorSystemd", "SensorLive", "SensorTerminal", "SensorIPMI", "SensorTestKit"]),
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

