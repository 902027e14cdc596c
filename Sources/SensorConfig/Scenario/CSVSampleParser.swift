import SensorRuntime

/// Reads the `time,value` rows of a scenario CSV file (SPEC §9).
///
/// Format: an optional `time,value` header line; then one row per sample, the time in
/// seconds (a plain decimal, read exactly) and the value, where an empty value or `null`
/// is a failed read. Blank lines and lines starting with `#` are skipped; times strictly
/// increase. Problems are reported at `line L, column C` of the CSV file.
enum CSVSampleParser {
    static func parse(_ text: String, diagnostics: ConfigDiagnostics) -> [TimedValue] {
        var samples: [TimedValue] = []
        var sawContent = false
        var previous: Timestamp?
        // "\r\n" is one Character in Swift, so it is a separator of its own.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (lineIndex, line) in lines.enumerated() {
            let number = lineIndex + 1
            let trimmed = line.trimmingSpaces
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            defer { sawContent = true }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            if !sawContent, fields.count == 2,
                fields[0].trimmingSpaces.lowercased() == "time", fields[1].trimmingSpaces.lowercased() == "value"
            {
                continue
            }
            // 1-based column of each field's first non-space character.
            var columns: [Int] = []
            var column = 1
            for field in fields {
                columns.append(column + field.prefix { $0 == " " || $0 == "\t" }.count)
                column += field.count + 1
            }
            guard fields.count >= 2 else {
                diagnostics.report(line: number, column: column - 1, "expected 2 columns (time,value), found 1")
                continue
            }
            if fields.count > 2 {
                diagnostics.report(
                    line: number, column: columns[2], "expected 2 columns (time,value), found \(fields.count)")
                continue
            }
            let timeText = fields[0].trimmingSpaces
            var time: Int64?
            if timeText.hasPrefix("-") {
                diagnostics.report(line: number, column: columns[0], "time must be 0 or more")
            } else {
                do {
                    time = try DurationParser.scaled(timeText, by: 1_000_000_000)
                } catch {
                    if !sawContent {
                        // Most likely a misspelt header: one error for the line, not one per column.
                        diagnostics.report(
                            line: number, column: columns[0],
                            "expected the header \"time,value\" or a time in seconds, found \"\(timeText)\"")
                        continue
                    }
                    diagnostics.report(
                        line: number, column: columns[0], "expected a time in seconds, found \"\(timeText)\"")
                }
            }
            if let t = time.map(Timestamp.init(nanoseconds:)) {
                if let problem = TimedValue.orderProblem(t, shown: String(timeText), after: previous, what: "row") {
                    diagnostics.report(line: number, column: columns[0], problem)
                }
                previous = max(previous ?? t, t)
            }
            let valueText = fields[1].trimmingSpaces
            var value: Double?
            var valueValid = true
            if !valueText.isEmpty && valueText != "null" {
                if let v = Double(valueText), v.isFinite {
                    value = v
                } else {
                    diagnostics.report(
                        line: number, column: columns[1], "expected a number, null or nothing, found \"\(valueText)\"")
                    valueValid = false
                }
            }
            if let time, valueValid { samples.append(TimedValue(time: Timestamp(nanoseconds: time), value: value)) }
        }
        return samples
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
