import Foundation
import Switchboard
import SwitchboardRemote
import SwitchboardTesting
import SwitchboardTestSupport
import Testing

/// A change the server announces (a schedule step, an override's expiry) reaches a remote board at its moment,
/// also when the server is out of reach, and from the cache alone after a restart.
@Suite struct AnnouncedChangeTests {
    static let yaml = """
        flags:
          launch:
            type: bool
            default: false
            schedule:
              - { at: 2026-01-01T01:00:00Z, serve: true }
          steady: { type: bool, default: false }
        """

    /// A server over the definitions on a manual clock, and a live remote board of it on the same clock.
    static func live() async throws -> (TestProject, ManualClock, LiveServer, RemoteConfiguration, RemoteBoard) {
        let project = TestProject(definitions: Self.yaml)
        let clock = ManualClock()
        let board = try Board(inputs: BoardInputs(directory: project.flags, statePath: project.storePath, environment: [:]),
                              options: BoardOptions(pollInterval: nil, clock: clock))
        let server = try await LiveServer(board: board)
        var configuration = try testConfiguration(server.url, cache: project.cache, poll: nil)
        configuration.clock = clock
        let remote = RemoteBoard(configuration)
        try await waitUntil("live") { remote.status == .live }
        return (project, clock, server, configuration, remote)
    }

    @Test func aStepAppliesOfflineAtItsMoment() async throws {
        let (project, clock, server, configuration, remote) = try await Self.live()
        #expect(remote.bool("launch", default: true) == false)
        // The announcement rides on the flag it concerns, and on no other.
        #expect(remote.resolve("launch").metadata["switchboard.next_at"] == .string("2026-01-01T01:00:00.000Z"))
        #expect(remote.resolve("launch").metadata["switchboard.next_value"] == .bool(true))
        #expect(remote.resolve("steady").metadata["switchboard.next_at"] == nil)
        await server.stop()
        try await waitUntil("the drop noticed") { remote.lastError != nil }
        clock.advance(by: .seconds(3600))
        #expect(remote.bool("launch", default: false) == true)
        await remote.stop()
        // Started later with the cache alone: the step has passed, so it applies at once.
        let restarted = RemoteBoard(configuration)
        try await waitUntil("the cache served") { restarted.status == .cached }
        #expect(restarted.bool("launch", default: false) == true)
        await restarted.stop()
        withExtendedLifetime(project) {}
    }

    @Test func aLocalOverrideThatExpiresGoesByItselfOffline() async throws {
        let (project, clock, server, configuration, remote) = try await Self.live()
        try remote.setLocalOverride("steady", to: true, expiresAt: clock.date.addingTimeInterval(600))
        #expect(remote.bool("steady", default: false) == true)
        await server.stop()
        try await waitUntil("the drop noticed") { remote.lastError != nil }
        clock.advance(by: .seconds(599))
        #expect(remote.bool("steady", default: false) == true)
        clock.advance(by: .seconds(1))
        #expect(remote.bool("steady", default: true) == false)
        #expect(remote.localOverrides.isEmpty)
        // The file keeps the expiry: a restart does not revive it.
        await remote.stop()
        let restarted = RemoteBoard(configuration)
        try await waitUntil("the cache served") { restarted.status == .cached }
        #expect(restarted.bool("steady", default: true) == false)
        await restarted.stop()
        withExtendedLifetime(project) {}
    }
}
