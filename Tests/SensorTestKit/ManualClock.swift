public import SensorCore

/// The clock tests move by hand: the ``VirtualClock`` `simulate` steps, under the name the
/// tests have always used.
public typealias ManualClock = VirtualClock
