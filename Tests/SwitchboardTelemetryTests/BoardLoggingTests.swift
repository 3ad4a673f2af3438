import Foundation
import InMemoryLogging
import Logging
import Switchboard
import SwitchboardTestSupport
import SwitchboardTesting
import Testing

/// What a board logs through swift-log on its own: failed reloads and their recovery, override values it skips,
/// and store outages.
@Suite struct BoardLoggingTests {
    let logs = InMemoryLogHandler()
    var logger: Logger { Logger(label: "switchboard") { _ in logs } }

    /// A board of `folder`'s `flags/` and state file, logging to ``logs``.
    func board(in folder: TemporaryDirectory) throws -> Board {
        try Board(inputs: BoardInputs(directory: folder.file("flags"), statePath: folder.file("state.json"),
                                      environment: [:]),
                  options: BoardOptions(pollInterval: nil, logger: logger))
    }

    func messages(_ level: Logger.Level) -> [String] {
        logs.entries.filter { $0.level == level }.map(\.message.description)
    }

    @Test func logsAFailedReloadWithItsDiagnosticsAndItsRecovery() throws {
        let folder = TemporaryDirectory()
        folder.write("flags/shop.yaml", shopDefinitions)
        let board = try board(in: folder)
        folder.write("flags/shop.yaml", shopDefinitions.replacingOccurrences(of: "default: 20", with: "default: many"))
        board.reload()
        let errors = messages(.error)
        #expect(errors.first == "definitions changed but do not validate: 1 error; still serving the last good definitions")
        #expect(errors.count == 2)
        #expect(errors.last?.contains("shop.yaml:") == true)
        // The same failure found again is not logged again.
        board.reload()
        #expect(messages(.error).count == 2)
        folder.write("flags/shop.yaml", shopDefinitions)
        board.reload()
        #expect(messages(.info).contains("definitions reloaded; the earlier errors are fixed"))
    }

    // A reload that leaves keys undefined (a deleted file, say) is healthy but not quiet: a warning names them.
    @Test func logsTheKeysAReloadNoLongerDefines() throws {
        let folder = TemporaryDirectory()
        folder.write("flags/shop.yaml", shopDefinitions)
        folder.write("flags/more.yaml", "namespace: more\nflags:\n  a:\n    type: bool\n    default: false\n")
        let board = try board(in: folder)
        try FileManager.default.removeItem(atPath: folder.file("flags/more.yaml"))
        board.reload()
        #expect(messages(.warning) == [
            "the definitions changed and 1 key is no longer defined: more.a; a client asking for it gets "
                + "FLAG_NOT_FOUND and its own default (no longer read: \(folder.file("flags/more.yaml")))",
        ])
        #expect(board.status.isDegraded == false)
    }

    @Test func logsAnOverrideValueItSkips() throws {
        let folder = TemporaryDirectory()
        folder.write("flags/shop.yaml", shopDefinitions)
        folder.write("flags/local.overrides.yaml", "overrides:\n  shop.page_size: 50\n")
        let board = try board(in: folder)
        #expect(logs.entries.isEmpty)
        folder.write("flags/local.overrides.yaml", "overrides:\n  shop.page_size: 500\n")
        board.reload()
        #expect(board.int("shop.page_size", default: 0) == 20)
        let warnings = messages(.warning)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("shop.page_size") == true)
        #expect(warnings.first?.contains("local.overrides.yaml") == true)
    }

    @Test func logsAStoreOutageAndItsEnd() throws {
        let store = InMemoryStore()
        let board = try Board.testing(yaml: shopDefinitions, store: store, logger: logger)
        store.fail(with: StoreError(message: "the database is down"))
        board.refreshRuntime()
        let error = try #require(logs.entries.first { $0.level == .error })
        #expect(error.message.description
            == "the runtime override store cannot be read; the last good overrides stay in effect")
        #expect(error.metadata["problem"]?.description.contains("the database is down") == true)
        store.fail(with: nil)
        board.refreshRuntime()
        #expect(messages(.info).contains("the runtime override store reads again"))
    }
}
