/// Where a device's runtime power state can be seen: the `power/runtime_status` files of
/// the device and of each parent up to `/sys/devices` (SPEC §20).
///
/// A read of a suspended device's hwmon files resumes it (a discrete GPU, an NVMe drive);
/// a read of `runtime_status` does not, as the PM core answers it without the driver. The
/// chain is found once at discovery, so a chip without any such file costs nothing per poll.
enum DevicePower {
    /// The `runtime_status` files up the chain of `device` (a resolved path), nearest first;
    /// empty without a device or when no device up to the `devices` directory has one.
    static func statusFiles(device: String?) -> [String] {
        guard var path = device, path.hasPrefix("/") else { return [] }
        var files: [String] = []
        // Up to, not including, the `devices` directory (`/sys/devices`, or a test tree's).
        while let slash = path.lastIndex(of: "/"), path[path.index(after: slash)...] != "devices",
            slash != path.startIndex
        {
            let file = path + "/power/runtime_status"
            if SysfsTree.exists(file) { files.append(file) }
            path = String(path[..<slash])
        }
        return files
    }

    /// Whether one of `files` (a chain from ``statusFiles(device:)``) says `suspended` now:
    /// a discovery reads none of such a chip's files (SPEC §20).
    static func isSuspended(_ files: [String], io: any SysfsIO) -> Bool {
        files.contains { SysfsTree.text($0, io: io) == "suspended" }
    }

    /// Whether the text of a `runtime_status` read says the device sleeps: `suspended`,
    /// exactly. `active`, `suspending`, `resuming`, `error`, a failed read or an empty file
    /// read the chip (a device on its way up or down is not left unread on a guess).
    static func isSuspended(_ length: Int, _ buffer: UnsafeMutableRawBufferPointer) -> Bool {
        let word = Array("suspended".utf8)
        guard length >= word.count, length <= word.count + 1 else { return false }
        for i in word.indices where buffer[i] != word[i] { return false }
        return length == word.count || buffer[word.count] == 0x0A
    }
}
