public import SensorRuntime

extension PriorityLine {
    /// An alert event's line, at its ``AlertEvent/level``.
    public static func text(for event: AlertEvent) -> String {
        text(event.message, at: event.level)
    }

    /// A sensor fault's or recovery's line, at its ``SensorFault/level``.
    public static func text(for fault: SensorFault) -> String {
        text(fault.message, at: fault.level)
    }

    /// The line of a sensor that appeared or went, at ``level(of:)``.
    public static func text(for presence: SensorPresence) -> String {
        text(presence.message, at: level(of: presence))
    }

    /// The level of a sensor that appeared or went (SPEC §20): worth noticing, never a fault.
    public static func level(of presence: SensorPresence) -> LogLevel { .notice }
}
