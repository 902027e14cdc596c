public import SensorRuntime

/// The sensors of one source as one discovery found them: made once per discovery, never
/// changed, shared by every cycle read against it.
///
/// Everything that is per-list rather than per-cycle lives here (ids, labels, quantities,
/// id → position, the positions of each quantity), so a poll cycle carries only values.
/// Consumers that cache work per list (the rule engine's entries, the model's split) key
/// the cache by the list's source and check the list's identity (`===`): a new discovery is
/// a new object, an unchanged one is the same object.
public final class SensorList: Sendable {
    /// The running source this list belongs to; unique per running source, so two sources
    /// of one kind (two thermal roots) never share a cache slot.
    public let source: String
    /// The sensors, in the order the cycles' values follow.
    public let sensors: [SensorInfo]
    /// Each sensor's position in ``sensors``.
    public let positions: [SensorID: Int]
    /// The quantities present, in `Quantity.allCases` order, with their sensors' positions.
    public let parts: [(quantity: Quantity, positions: [Int])]
    /// The quantities present, as ``Quantity/bit``s (kept: every commit asks).
    public let quantityBits: UInt8
    /// When the discovery ran: a sensor first listed here counts as unread from then on
    /// (`stale`), even if its first poll hangs.
    public let discovered: Timestamp
    /// Why sensors the discovery saw are not listed (`PATH: read blocked for 1s; …`): a
    /// chip whose name blocks has no ids yet (SPEC §8). Empty when nothing is left out.
    public let leftOut: [String]

    /// A list of `sensors` (in the order readings will follow) for `source`, discovered at
    /// `discovered`, with what the discovery had to leave out.
    public init(source: String, sensors: [SensorInfo], discovered: Timestamp = .zero, leftOut: [String] = []) {
        self.source = source
        self.leftOut = leftOut
        self.discovered = discovered
        self.sensors = sensors
        var positions: [SensorID: Int] = [:]
        positions.reserveCapacity(sensors.count)
        for (i, info) in sensors.enumerated() { positions[info.id] = i }
        self.positions = positions
        self.parts = Quantity.allCases.compactMap { q in
            let at = sensors.indices.filter { sensors[$0].quantity == q }
            return at.isEmpty ? nil : (q, at)
        }
        self.quantityBits = parts.reduce(0) { $0 | $1.quantity.bit }
    }

    /// How many sensors the list has.
    public var count: Int { sensors.count }
}
