@testable import SensorConfig
@testable import SensorCore
@testable import SensorRuntime

/// libFuzzer target: `ConfigLoader.load(contents:path:)` over arbitrary bytes.
///
/// Besides "no crash, no out-of-bounds read", it checks that every failure is reported with a
/// message on one line and, for syntax errors, a line and column inside the input; that a
/// success is a configuration the daemon can run (positive intervals, unique named rules);
/// and that loading is deterministic.
let configPath = "/nonexistent-sensorwatch-fuzz/sensorwatch.json5"

@_cdecl("LLVMFuzzerTestOneInput")
public func configFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = fuzzBytes(data, size)
    let first = Result { () throws(ConfigErrors) -> Configuration in
        try ConfigLoader.load(contents: bytes, path: configPath)
    }
    let second = Result { () throws(ConfigErrors) -> Configuration in
        try ConfigLoader.load(contents: bytes, path: configPath)
    }
    fuzzCheck(first == second, "two loads of one input differ")
    switch first {
    case .success(let configuration):
        fuzzCheck(configuration.path == configPath, "path \(configuration.path)")
        fuzzCheck(configuration.interval > .zero, "interval \(configuration.interval)")
        for source in configuration.sources {
            fuzzCheck(source.interval > .zero, "source interval \(source.interval)")
            fuzzCheck(
                (source.kind == .simulated) == (source.scenario != nil),
                "a scenario on a \(source.kind) source, or a simulated source without one")
        }
        let names = configuration.rules.map(\.name)
        fuzzCheck(!names.contains(""), "a rule without a name")
        fuzzCheck(Set(names).count == names.count, "two rules with one name: \(names)")
        for rule in configuration.rules {
            guard case .predict(let p) = rule.condition else { continue }
            fuzzCheck(
                p.within > .zero && p.over > .zero && p.hysteresis >= 0 && p.threshold.isFinite,
                "predict rule \(rule.name) the daemon cannot run: \(p)")
        }
    case .failure(let errors):
        let lines = String(validating: bytes, as: UTF8.self).map(ErrorInvariants.scalarLineLengths)
        ErrorInvariants.check(errors, file: configPath, lines: lines)
    }
    return 0
}
