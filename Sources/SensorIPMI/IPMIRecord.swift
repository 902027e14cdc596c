/// One sensor of a BMC's SDR, as far as sensorwatch uses it.
public struct IPMIRecord: Hashable, Sendable {
    /// Equal when every field is (the hysteresis is a tuple, so this is written out).
    public static func == (a: IPMIRecord, b: IPMIRecord) -> Bool {
        a.recordID == b.recordID && a.name == b.name && a.sensorType == b.sensorType
            && a.eventReadingType == b.eventReadingType
            && a.baseUnit == b.baseUnit && a.isThreshold == b.isThreshold && a.thresholds == b.thresholds
            && a.hysteresis == b.hysteresis
    }

    /// Hashes the record id and name (enough to tell records apart).
    public func hash(into h: inout Hasher) {
        h.combine(recordID)
        h.combine(name)
    }

    /// The SDR's record id (orders two sensors of one name).
    public var recordID: Int
    /// The SDR's id string, as the BMC has it (untrusted text).
    public var name: String
    /// IPMI's sensor type (0x01 temperature, 0x08 power supply, …).
    public var sensorType: UInt8
    /// IPMI's event/reading type code (0x01 threshold, 0x6f sensor-specific, …).
    public var eventReadingType: UInt8
    /// IPMI's base unit code (1 °C, 2 °F, 3 K, 4 V, 5 A, 6 W, 18 RPM).
    public var baseUnit: UInt8
    /// Whether it reads a value with thresholds (else its states are discrete).
    public var isThreshold: Bool
    /// The thresholds the SDR marks readable, in the sensor's unit: `lnc`, `lc`, `lnr`,
    /// `unc`, `uc`, `unr`.
    public var thresholds: [String: Double]
    /// The SDR's positive-going hysteresis (clears an upper threshold that far below it) and
    /// negative-going one (a lower threshold that far above it), in the sensor's unit; 0: none.
    public var hysteresis: (positive: Double, negative: Double)

    /// A record with these fields.
    public init(
        recordID: Int, name: String, sensorType: UInt8, eventReadingType: UInt8, baseUnit: UInt8,
        isThreshold: Bool, thresholds: [String: Double] = [:], hysteresis: (positive: Double, negative: Double) = (0, 0)
    ) {
        self.hysteresis = hysteresis
        self.recordID = recordID
        self.name = name
        self.sensorType = sensorType
        self.eventReadingType = eventReadingType
        self.baseUnit = baseUnit
        self.isThreshold = isThreshold
        self.thresholds = thresholds
    }
}
