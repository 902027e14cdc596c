/// Alert transitions waiting for the broker, oldest first, at most `limit`: beyond, the
/// oldest is dropped and counted (SPEC §24: "at most 10 000 waiting").
struct HeldMessages: Sendable {
    let limit: Int
    private var items: [MQTTMessage] = []
    private var head = 0
    /// How many were dropped for the bound, in all.
    private(set) var dropped = 0

    init(limit: Int) { self.limit = limit }

    var count: Int { items.count - head }

    /// Keeps `message` after the others, dropping the oldest when full.
    mutating func append(_ message: MQTTMessage) {
        if count >= limit {
            head += 1
            dropped += 1
        }
        items.append(message)
        // Compacted now and then, so the array does not grow with every drop.
        if head > 1024, head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
    }

    /// Every message held, oldest first; none are held after.
    mutating func drain() -> [MQTTMessage] {
        defer {
            items = []
            head = 0
        }
        return Array(items[head...])
    }
}
