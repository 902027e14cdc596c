import SensorCore
import SensorRuntime

/// A reader that passes everything through and tells a ``FileShortageTally`` after each
/// poll how many of its sensors failed for want of open files.
final class FileShortageReader: SensorReader {
    private let reader: any SensorReader
    private let tally: FileShortageTally
    private let key: Int

    init(_ reader: any SensorReader, tally: FileShortageTally) {
        self.reader = reader
        self.tally = tally
        key = tally.register()
    }

    deinit { tally.remove(key) }

    var source: String { reader.source }

    func discover() -> [SensorInfo] { reader.discover() }

    func isolateBlockedRead(now: Timestamp) -> Bool { reader.isolateBlockedRead(now: now) }

    var leftOut: [String] { reader.leftOut }

    func devicesChanged() -> Bool { reader.devicesChanged() }

    func close() { reader.close() }

    func poll(at time: Timestamp) -> [SensorValues] {
        let polled = reader.poll(at: time)
        // The latest instant speaks for the source now.
        if let last = polled.last {
            let unread = last.faults.values.count(where: OpenFileLimit.isShortage)
            tally.update(key, unread: unread, total: last.count)
        }
        return polled
    }
}
