import SensorCore

/// Writes whole lines to stdout or stderr, unbuffered and in order.
enum Output {
    static func stdout(_ text: String) { write(1, text) }
    static func stderr(_ text: String) { write(2, text) }

    private static func write(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        if bytes.last != 0x0A { bytes.append(0x0A) }
        FileDescriptorWriter.writeAll(fd, bytes)
    }
}
