/// Waits (yielding, with a generous guard) until `condition` holds: work on other threads
/// or tasks has to be let finish, but a test never asserts on timing.
@MainActor
func eventually(_ condition: () -> Bool) async {
    let start = ContinuousClock.now
    while !condition(), ContinuousClock.now - start < .seconds(10) {
        try? await Task.sleep(for: .milliseconds(1))
    }
}
