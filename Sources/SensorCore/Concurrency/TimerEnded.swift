/// How ``withTimer(_:_:)``'s timer ended: ran out, or was cut short.
struct TimerEnded: Error {
    var ranOut: Bool
}
