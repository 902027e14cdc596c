@testable import SensorConfig
@testable import SensorRuntime

/// libFuzzer target: `ScenarioLoader.load(contents:path:)` and the scenario CSV parser.
///
/// The input is a scenario file, optionally followed by a NUL byte and the text of a CSV file
/// (a NUL cannot occur in valid JSON5, so the split costs the scenario part nothing). Checks:
/// error reports as in the config target; a loaded scenario has a positive step, unique valid
/// sensor ids, finite values and explicit samples in time order within its duration; CSV rows
/// come back in time order with finite values, and CSV errors point inside the CSV text.
let scenarioPath = "/nonexistent-sensorwatch-fuzz/scenario.json5"
let csvPath = "/nonexistent-sensorwatch-fuzz/samples.csv"

@_cdecl("LLVMFuzzerTestOneInput")
public func scenarioFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = fuzzBytes(data, size)
    let split = bytes.firstIndex(of: 0) ?? bytes.endIndex
    let scenarioBytes = Array(bytes[..<split])
    checkScenario(scenarioBytes)
    if split < bytes.endIndex, let csv = String(validating: bytes[(split + 1)...], as: UTF8.self) {
        checkCSV(csv)
    }
    return 0
}

private func checkScenario(_ bytes: [UInt8]) {
    let first = Result { () throws(ConfigErrors) -> Scenario in
        try ScenarioLoader.load(contents: bytes, path: scenarioPath)
    }
    let second = Result { () throws(ConfigErrors) -> Scenario in
        try ScenarioLoader.load(contents: bytes, path: scenarioPath)
    }
    fuzzCheck(first == second, "two loads of one input differ")
    switch first {
    case .success(let scenario):
        fuzzCheck(scenario.step > .zero, "step \(scenario.step)")
        fuzzCheck(scenario.duration >= .zero, "duration \(scenario.duration)")
        fuzzCheck(!scenario.sensors.isEmpty, "a scenario without sensors")
        let ids = scenario.sensors.map(\.id)
        fuzzCheck(Set(ids).count == ids.count, "two sensors with one id: \(ids)")
        for sensor in scenario.sensors {
            fuzzCheck(!sensor.id.isEmpty, "a sensor without an id")
            switch sensor.feed {
            case .samples(let samples):
                checkSamples(samples, what: "sensor \(sensor.id)")
                if let last = samples.last {
                    fuzzCheck(
                        last.time.nanoseconds <= scenario.duration.nanoseconds,
                        "sample at \(last.time.nanoseconds) ns after duration \(scenario.duration)")
                }
            case .generated(let start, let segments, let noise):
                fuzzCheck(start.isFinite && noise.isFinite && noise >= 0, "start \(start), noise \(noise)")
                for segment in segments { checkSegment(segment) }
            }
        }
    case .failure(let errors):
        let lines = String(validating: bytes, as: UTF8.self).map(ErrorInvariants.scalarLineLengths)
        ErrorInvariants.check(errors, file: scenarioPath, lines: lines)
    }
}

private func checkSegment(_ segment: Segment) {
    switch segment {
    case .ramp(let to, let over): fuzzCheck(to.isFinite && over > .zero, "\(segment)")
    case .hold(let d): fuzzCheck(d >= .zero, "\(segment)")
    case .step(let to): fuzzCheck(to.isFinite, "\(segment)")
    case .sine(let amplitude, let period, let over):
        fuzzCheck(amplitude.isFinite && period > .zero && over > .zero, "\(segment)")
    case .dropout(let d): fuzzCheck(d > .zero, "\(segment)")
    }
}

private func checkSamples(_ samples: [TimedValue], what: String) {
    var previous: Int64 = 0
    for sample in samples {
        fuzzCheck(sample.time.nanoseconds >= previous, "\(what): samples out of order or before 0")
        fuzzCheck(sample.value?.isFinite ?? true, "\(what): value \(String(describing: sample.value))")
        previous = sample.time.nanoseconds
    }
}

private func checkCSV(_ text: String) {
    let diagnostics = ConfigDiagnostics(file: csvPath)
    let samples = CSVSampleParser.parse(text, diagnostics: diagnostics)
    if diagnostics.errors.isEmpty {
        checkSamples(samples, what: "csv")
    } else {
        ErrorInvariants.check(
            ConfigErrors(diagnostics.errors), file: csvPath, lines: ErrorInvariants.characterLineLengths(text))
    }
}
