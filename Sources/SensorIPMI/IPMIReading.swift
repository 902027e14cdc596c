/// One sensor read of a session.
public enum IPMIReading: Hashable, Sendable {
    /// A threshold sensor's value, in the SDR's unit.
    case value(Double)
    /// A discrete sensor's asserted state bits (bit n: state offset n).
    case states(UInt16)
    /// This sensor could not be read now (the BMC's words); the session is fine.
    case unavailable(String)
}
