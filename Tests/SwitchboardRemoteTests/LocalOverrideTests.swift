import Foundation
import InMemoryLogging
import Logging
import Switchboard
import SwitchboardRemote
import SwitchboardTestSupport
import Testing

/// Device-local overrides on a remote board: they win over the server's value on this device only, persist in
/// the cache directory across restarts (and offline), say where they come from, and reach the streams.
@Suite struct LocalOverrideTests {
    let project = TestProject(fixture: "flags")

    @Test func anOverrideWinsLocallyAndTheServerNeverSeesIt() async throws {
        let board = try project.board()
        let server = try await LiveServer(board: board)
        let remote = RemoteBoard(try testConfiguration(server.url, cache: project.cache))
        try await waitUntil("live") { remote.status == .live }
        let updates = AsyncCollector(remote.updates(of: FlagKey("app.new_flow", default: false)))
        #expect(try await updates.next() == false)

        try remote.setLocalOverride("app.new_flow", to: true, actor: "tester")
        #expect(try await updates.next() == true)
        let details = remote.details("app.new_flow", default: false)
        #expect(details.value == true && details.reason == .override && details.layer == .runtime)
        #expect(remote.localOverrides == ["app.new_flow": true])
        #expect(board.bool("app.new_flow", default: true) == false)
        #expect(board.storedOverride("app.new_flow") == nil)

        // A change on the server to that key does not undo the device's override; resetting it does.
        try board.set("app.new_flow", to: false, actor: "server")
        try remote.resetLocalOverride("app.new_flow")
        #expect(try await updates.next() == false)
        // The value is the server's again: its own runtime override (reason OVERRIDE from the server's runtime
        // layer) once the change has reached this board, its earlier answer before that; never the device's.
        #expect(remote.localOverrides["app.new_flow"] == nil)
        #expect(remote.resolve("app.new_flow").metadata["switchboard.local"] == nil)
        await remote.stop()
        await server.stop()
    }

    @Test func overridesSurviveARestartAndApplyOffline() async throws {
        let server = try await LiveServer(board: try project.board())
        let first = RemoteBoard(try testConfiguration(server.url, cache: project.cache))
        try await waitUntil("live") { first.status == .live }
        try first.setLocalOverride("app.upload.max_mb", to: 99)
        try first.setLocalOverride("app.greeting", to: "hi")
        await first.stop()
        await server.stop()

        let offline = RemoteBoard(try testConfiguration(server.url, cache: project.cache))
        #expect(offline.int("app.upload.max_mb", default: 0) == 99)
        #expect(offline.details("app.upload.max_mb", default: 0).reason == .override)
        #expect(offline.string("app.greeting", default: "") == "hi")
        // Keys without an override are the cached server values.
        #expect(offline.details("app.ratio", default: 0.0).reason == .cached)
        try offline.resetAllLocalOverrides()
        #expect(offline.int("app.upload.max_mb", default: 0) == 25)
        #expect(offline.localOverrides.isEmpty)
        await offline.stop()
    }

    @Test func aValueOfAnotherTypeOrAnUnknownKeyIsRefusedAndWritesNothing() async throws {
        let server = try await LiveServer(board: try project.board())
        let remote = RemoteBoard(try testConfiguration(server.url, cache: project.cache))
        try await waitUntil("live") { remote.status == .live }
        #expect(throws: LocalOverrideError.self) { try remote.setLocalOverride("app.upload.max_mb", to: "many") }
        #expect(throws: LocalOverrideError.self) { try remote.setLocalOverride("app.upload.max_mbb", to: 3) }
        #expect(remote.localOverrides.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: project.cache + "/local-overrides.json"))
        // An int for a double widens, as everywhere.
        try remote.setLocalOverride("app.ratio", to: 2)
        #expect(remote.double("app.ratio", default: 0) == 2.0)
        await remote.stop()
        await server.stop()
    }

    /// A value nested deeper than any value may (64 lists and objects, as everywhere) is refused: written, it would
    /// make the whole file unreadable at the next start, and every other override in it would be lost.
    @Test func aValueNestedTooDeeplyIsRefusedAndTheOthersSurvive() async throws {
        let project = TestProject(definitions: """
            namespace: app
            preferences:
              layout:
                type: object
                default: { columns: 2 }
              greeting:
                type: string
                default: hello
            """)
        let server = try await LiveServer(board: try project.board())
        let remote = RemoteBoard(try testConfiguration(server.url, cache: project.cache))
        try await waitUntil("live") { remote.status == .live }
        /// `levels` objects, one in the other.
        func nested(_ levels: Int) -> [String: Value] {
            (1..<levels).reduce(["leaf": Value.int(1)]) { inner, _ in ["child": .object(inner)] }
        }
        try remote.setLocalOverride("app.greeting", to: "hi")
        try remote.setLocalOverride("app.layout", to: nested(64))
        #expect(throws: LocalOverrideError.self) { try remote.setLocalOverride("app.layout", to: nested(65)) }
        do {
            try remote.setLocalOverride("app.layout", to: nested(300))
            Issue.record("a value nested 300 levels deep was written")
        } catch {
            #expect("\(error)".contains("nesting deeper than 64 levels"), "\(error)")
        }
        await remote.stop()
        await server.stop()

        let offline = RemoteBoard(try testConfiguration(server.url, cache: project.cache))
        #expect(offline.localOverrides == ["app.greeting": "hi", "app.layout": .object(nested(64))])
        await offline.stop()
    }

    @Test func aCorruptOverridesFileIsReportedAndIgnored() async throws {
        let server = try await LiveServer(board: try project.board())
        try FileManager.default.createDirectory(atPath: project.cache, withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: project.cache + "/local-overrides.json"))
        let logs = InMemoryLogHandler()
        let remote = RemoteBoard(try testConfiguration(server.url, cache: project.cache),
                                 logger: recordingLogger(logs))
        try await waitUntil("live") { remote.status == .live }
        #expect(remote.localOverrides.isEmpty)
        #expect(remote.int("app.upload.max_mb", default: 0) == 25)
        #expect(logs.entries.contains { "\($0.message)".contains("local overrides file") })
        await remote.stop()
        await server.stop()
    }

    /// The file is written as the file store writes its state (the shared `AtomicFile`, whose kill test is
    /// `AtomicFileKillTests`): replaced whole by a rename, never rewritten in place, and a temporary file that a
    /// killed write left behind is neither read nor in the way.
    @Test func aWriteReplacesTheFileWhole() async throws {
        let server = try await LiveServer(board: try project.board())
        let remote = RemoteBoard(try testConfiguration(server.url, cache: project.cache))
        try await waitUntil("live") { remote.status == .live }
        let path = project.cache + "/local-overrides.json"
        try remote.setLocalOverride("app.upload.max_mb", to: 99)
        let first = try #require(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int)
        try Data("{\"format\":1,\"overr".utf8).write(to: URL(fileURLWithPath: path + ".tmp"))
        try remote.setLocalOverride("app.greeting", to: "hi")
        let second = try #require(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int)
        #expect(first != second, "the file was rewritten in place, not replaced")
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
        await remote.stop()
        await server.stop()

        let offline = RemoteBoard(try testConfiguration(server.url, cache: project.cache))
        #expect(offline.localOverrides == ["app.upload.max_mb": 99, "app.greeting": "hi"])
        await offline.stop()
    }

    @Test func theWrapperWritesALocalOverride() async throws {
        let server = try await LiveServer(board: try project.board())
        let remote = RemoteBoard(try testConfiguration(server.url, cache: project.cache))
        try await waitUntil("live") { remote.status == .live }
        let flow = Preference(FlagKey("app.new_flow", default: false), on: remote)
        flow.wrappedValue = true
        #expect(remote.bool("app.new_flow", default: false))
        try flow.projectedValue.reset()
        #expect(!remote.bool("app.new_flow", default: true))
        await remote.stop()
        await server.stop()
    }
}
