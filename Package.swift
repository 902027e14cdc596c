// swift-tools-version:6.0
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
        // The few glibc calls Swift's Glibc module does not import, and the batched read.
        .target(name: "CLinux"),
        // Model, rules, readers, configuration, engine: no libsystemd.
        .target(name: "SensorCore", dependencies: ["CLinux"]),
        // Journal sink, sd_notify, journal history: the only importer of CSystemd.
        .target(name: "SensorSystemd", dependencies: ["SensorCore", "CSystemd"]),
        // Subcommands, argument parsing, output formatting (testable, unlike main.swift).
        .target(name: "SensorCLI", dependencies: ["SensorCore", "SensorSystemd", "CLinux"]),
        .executableTarget(name: "sensorwatch", dependencies: ["SensorCLI"]),
        // Fakes and temporary trees the test targets share (clock, readers, sysfs trees);
        // public API of SensorCore only, so it also builds in release.
        .target(name: "SensorTestKit", dependencies: ["SensorCore"], path: "Tests/SensorTestKit"),
        .testTarget(name: "SensorCoreTests", dependencies: ["SensorCore", "SensorTestKit"]),
        .testTarget(name: "SensorSystemdTests", dependencies: ["SensorSystemd", "SensorCore", "SensorTestKit"]),
        .testTarget(name: "SensorCLITests", dependencies: ["SensorCLI", "SensorCore", "SensorTestKit"]),
    ],
    swiftLanguageModes: [.v6]
)
