import Locking

/// Tests that set state the whole test process shares (`Preferences.defaultStore`) run their body under this one
/// lock, so that two such tests in different targets never see each other's setting.
private let processWideState = Locked(())

/// Runs `body` while no other test that uses process-wide state runs.
public func withProcessWideState<T>(_ body: () throws -> T) rethrows -> T {
    try processWideState.withLock { _ in try body() }
}
