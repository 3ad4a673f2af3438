import Foundation
import InMemoryLogging
import Logging
import Switchboard
import SwitchboardRemote
import SwitchboardTestSupport
import Testing

/// How a remote board starts: server up, server down with a cache, server down with none, a corrupt cache.
@Suite struct StartupTests {
    let project = TestProject(fixture: "flags")

    @Test func servesTheServersValuesAndKeepsACache() async throws {
        let server = try await LiveServer(board: try project.board())
        let remote = RemoteBoard(try testConfiguration(server.url, cache: project.cache))
        try await waitUntil("live") { remote.status == .live }
        #expect(remote.int("app.upload.max_mb", default: 0) == 25)
        #expect(remote.double("app.ratio", default: 0) == 1.5)
        #expect(remote.string("app.greeting", default: "") == "hello")
        #expect(remote.bool("app.new_flow", default: true) == false)
        let details = remote.details("app.upload.max_mb", default: 0)
        #expect(details.reason == .static)
        #expect(details.errorCode == nil)
        let files = try FileManager.default.contentsOfDirectory(atPath: project.cache)
        #expect(files.count == 1)
        await remote.stop()
        await server.stop()
    }

    @Test func startsOfflineFromTheCacheWithTheReasonCached() async throws {
        let board = try project.board()
        try board.set("app.upload.max_mb", to: 80, actor: "test")
        let server = try await LiveServer(board: board)
        let first = RemoteBoard(try testConfiguration(server.url, cache: project.cache))
        try await waitUntil("live") { first.status == .live }
        await first.stop()
        await server.stop()

        let offline = RemoteBoard(try testConfiguration(server.url, cache: project.cache))
        // The cache is in service before the first fetch even fails.
        #expect(offline.status == .cached)
        #expect(offline.int("app.upload.max_mb", default: 0) == 80)
        let details = offline.details("app.upload.max_mb", default: 0)
        #expect(details.reason == .cached)
        #expect(details.value == 80)
        try await waitUntil("a failed fetch reported") { offline.lastError != nil }
        #expect(offline.status == .cached)
        await offline.stop()
    }

    @Test func withoutServerOrCacheLookupsGiveTheDefaultWithAnErrorCode() async throws {
        let remote = RemoteBoard(try testConfiguration("http://127.0.0.1:\(try await closedPort())"))
        try await waitUntilSettled(remote)
        #expect(remote.bool("app.new_flow", default: true) == true)
        let details = remote.details("app.new_flow", default: true)
        #expect(details.value == true)
        #expect(details.reason == .error)
        #expect(details.errorCode == .providerNotReady)
        #expect(details.errorMessage?.contains("unreachable") == true)
        #expect(remote.status == .starting)
        await remote.stop()
    }

    @Test func aCorruptCacheFileIsReportedAndIgnored() async throws {
        // Write a good cache file through a board, then spoil it.
        let server = try await LiveServer(board: try project.board())
        let writer = RemoteBoard(try testConfiguration(server.url, cache: project.cache))
        try await waitUntil("live") { writer.status == .live }
        await writer.stop()
        await server.stop()
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: project.cache).first)
        try "{\"format\":1, truncated".write(toFile: project.cache + "/" + file, atomically: true, encoding: .utf8)

        let logs = InMemoryLogHandler()
        let remote = RemoteBoard(try testConfiguration(server.url, cache: project.cache),
                                 logger: recordingLogger(logs))
        #expect(remote.status == .starting)
        #expect(remote.int("app.upload.max_mb", default: 7) == 7)
        #expect(logs.entries.contains { $0.level == .error && "\($0.message)".contains("cache file") })
        await remote.stop()
    }
}
