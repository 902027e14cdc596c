import SensorRuntime

/// Writes whole lines to stdout or stderr, unbuffered and in order.
///
/// Every line goes out with its control characters escaped (``DisplayText``): what a
/// command prints quotes sensor names, labels, journal fields and configuration strings,
/// and none of them may reach the terminal as a control sequence. The formatters escape
/// those texts where they put them, so a newline in one stays in its line; this is the
/// guarantee for every other text, such as an error that quotes a file.
enum Output {
    static func stdout(_ text: String) { write(1, text) }
    static func stderr(_ text: String) { write(2, text) }

    private static func write(_ fd: Int32, _ text: String) {
        var bytes = Array(DisplayText.escapedLines(text).utf8)
        if bytes.last != 0x0A { bytes.append(0x0A) }
        FileDescriptorWriter.writeAll(fd, bytes)
    }
}
