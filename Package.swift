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
        .target(name: "SensorHTTP", dependencies: ["SensorCore", "SensorNotify", "CurlLoader"]),
        // libmosquitto opened with dlopen by `mqtt` only; the loader declares the few functions it
        // calls, so no header package is needed to build (see MosquittoLoader).
        .target(name: "MosquittoLoader", linkerSettings: [.linkedLibrary("dl")]),
        // `mqtt` (SPEC §24): the daemon's live stream to an MQTT broker, Home Assistant discovery.
        .target(name: "SensorMQTT", dependencies: ["SensorCore", "SensorLive", "MosquittoLoader"]),
        // libfreeipmi opened with dlopen on a BMC source's first session (its prototypes
        // declared in the C file: no libfreeipmi-dev needed to build).
        .target(name: "FreeIPMILoader", linkerSettings: [.linkedLibrary("dl")]),
        // BMC sensors over IPMI (SPEC §23): the only importer of FreeIPMILoader.
        .target(name: "SensorIPMI", dependencies: ["SensorCore", "FreeIPMILoader"]),
        // The few glibc calls Swift's Glibc module does not import, and the batched read.
        .target(name: "CLinux"),
        // Model, rules, configuration, engine, the simulated reader: no libsystemd, no sysfs.
        .target(name: "SensorCore", dependencies: ["CLinux"]),
        // The sysfs plumbing: files read with guards against hung and hostile ones, the names
        // of chips and zones, discovery, and the thermal, hwmon and iio readers.
        .target(name: "SensorSysfs", dependencies: ["SensorCore", "CLinux"]),
        // `notify` (SPEC §17): events, lanes, deliveries (exec, Alertmanager through an
        // injected HTTPPoster), its state file and wake socket; no libsystemd, no libcurl.
        .target(name: "SensorNotify", dependencies: ["SensorCore", "CLinux"]),
        // Journal sink, sd_notify, journal history: the only importer of CSystemd.
        .target(name: "SensorSystemd", dependencies: ["SensorCore", "SensorNotify", "CSystemd"]),
        // The terminal layer of `top` (SPEC §22): a cell grid drawn by difference, keys,
        // termios, sparklines; no ncurses.
        .target(name: "SensorTerminal", dependencies: ["SensorCore"]),
        // The live stream (SPEC §22): its messages, the daemon's server, and the client side
        // (connection and model) that watch, top and mqtt share.
        .target(name: "SensorLive", dependencies: ["SensorCore", "CLinux"]),
        // Subcommands, argument parsing, output formatting (testable, unlike main.swift).
        .target(name: "SensorCLI", dependencies: ["SensorCore", "SensorLive", "SensorSysfs", "SensorNotify", "SensorSystemd", "SensorHTTP", "SensorTerminal", "SensorMQTT", "SensorIPMI", "CLinux"]),
        .executableTarget(name: "sensorwatch", dependencies: ["SensorCLI"]),
        // Fakes and temporary trees the test targets share (clock, readers, sysfs trees);
        // public API of SensorCore and SensorSysfs only, so it also builds in release.
        .target(name: "SensorTestKit", dependencies: ["SensorCore", "SensorSysfs"], path: "Tests/SensorTestKit"),
        .testTarget(name: "SensorCoreTests", dependencies: ["SensorCore", "SensorTestKit"]),
        .testTarget(name: "SensorSysfsTests", dependencies: ["SensorSysfs", "SensorCore", "SensorTestKit"]),
        .testTarget(name: "SensorNotifyTests", dependencies: ["SensorNotify", "SensorCore", "SensorTestKit"]),
        .testTarget(name: "SensorHTTPTests", dependencies: ["SensorHTTP", "SensorNotify", "SensorCore"]),
        .testTarget(name: "SensorSystemdTests", dependencies: ["SensorSystemd", "SensorCore", "SensorTestKit"]),
        .testTarget(name: "SensorTerminalTests", dependencies: ["SensorTerminal", "SensorCore"]),
        .testTarget(name: "SensorLiveTests", dependencies: ["SensorLive", "SensorCore", "SensorTestKit"]),
        .testTarget(name: "SensorMQTTTests", dependencies: ["SensorMQTT", "SensorLive", "SensorCore", "SensorTestKit"]),
        .testTarget(name: "SensorIPMITests", dependencies: ["SensorIPMI", "SensorCore", "SensorTestKit"]),
        .testTarget(name: "SensorCLITests", dependencies: ["SensorCLI", "SensorCore", "SensorLive", "SensorTerminal", "SensorTestKit"]),
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

