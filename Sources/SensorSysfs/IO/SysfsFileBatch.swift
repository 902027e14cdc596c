/// Files of one directory read at discovery in one ``SysfsIO/readFiles(in:names:into:stride:lengths:progress:)``
/// call (a chip's labels and limit files), and what each gave.
struct SysfsFileBatch {
    /// Each file's slot: a limit's number or a label fits; a longer file fills it (see
    /// ``isFull(_:)``).
    static let stride = SysfsSensorSet.bufferSize

    let directory: String
    private var names = SysfsFileList()
    private var buffer: [UInt8] = []
    private var lengths: [Int] = []

    init(directory: String) { self.directory = directory }

    /// How many files were added: the index the next one gets.
    var count: Int { names.count }

    /// Adds the file `head` + `tail` of the directory; returns its index.
    mutating func add(_ head: String, _ tail: String = "") -> Int {
        names.append(head, tail)
        return names.count - 1
    }

    /// Reads every file added, in one call through `io`.
    mutating func read(io: any SysfsIO) {
        let (directory, names) = (self.directory, self.names)
        var buffer = [UInt8](repeating: 0, count: names.count * Self.stride)
        var lengths = [Int](repeating: 0, count: names.count)
        if names.count > 0 {
            buffer.withUnsafeMutableBytes { buffer in
                lengths.withUnsafeMutableBufferPointer { lengths in
                    io.readFiles(
                        in: directory, names: names, into: buffer, stride: Self.stride, lengths: lengths,
                        progress: SysfsReadProgress())
                }
            }
        }
        self.buffer = buffer
        self.lengths = lengths
    }

    /// The path of file `index`.
    func path(_ index: Int) -> String { directory + "/" + names[index] }

    /// Whether file `index` filled its slot (it may hold more than was read).
    func isFull(_ index: Int) -> Bool { lengths[index] >= Self.stride }

    /// What file `index` gave: `body` gets the byte count (or `-errno`, or
    /// ``GuardedSysfsIO/blockedResult``) and the file's slot.
    func result<R>(_ index: Int, _ body: (Int, UnsafeRawBufferPointer) -> R) -> R {
        buffer.withUnsafeBytes { all in
            body(
                lengths[index],
                UnsafeRawBufferPointer(rebasing: all[(index * Self.stride)..<((index + 1) * Self.stride)]))
        }
    }
}
