public import SensorRuntime

/// What an alert is evaluated on: a read attempt of its sensor, or a tick of its source.
public enum AlertInput: Hashable, Sendable {
    /// A read attempt (successful or failed).
    case sample(Sample)
    /// A successful reading seen with these alarm files set (SPEC §16b).
    case alarmed(Sample, HardwareAlarms)
    /// A tick of the source's interval at a time, with no reading of its own.
    case tick(Timestamp)
    /// The sensor's device went at a time (SPEC §20): its firing alerts resolve.
    case gone(Timestamp)
}
