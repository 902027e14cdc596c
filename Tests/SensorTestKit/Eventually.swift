/// Waits, yielding every millisecond, until `condition` holds or `limit` has passed; returns
/// whether it holds.
///
/// For a state another thread reaches (a poll thread that started, an executor gone idle).
/// `limit` is a failure guard for a broken build, never a timing assertion: tests assert
/// on the state, not on how soon it came. Runs on the caller's actor, so `condition` may
/// read its state.
@discardableResult
public func eventually(
    within limit: Duration = .seconds(10), isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool
) async -> Bool {
    let start = ContinuousClock.now
    while !condition() {
        if ContinuousClock.now - start >= limit { return false }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}
