import Switchboard
import Testing
import SwitchboardTestSupport

/// A generated value enum meets a value it has no case for: an override of a value added to the YAML after the
/// code was generated, say. The lookup gives the key's default with a reason; nothing crashes.
struct FallbackTests {
    /// `SortOrder` exactly as `switchboard generate` writes it for `values: [newest_first, oldest_first]`.
    enum SortOrder: String, CaseIterable, FlagValue {
        case newestFirst = "newest_first"
        case oldestFirst = "oldest_first"
    }

    static let sortOrder = FlagKey<SortOrder>("app.history.sort_order", default: .newestFirst)

    /// The definitions now allow a third value, which the environment selects.
    private func board(sortOrder: String) throws -> (TemporaryDirectory, Board) {
        let directory = TemporaryDirectory()
        directory.write("flags/app.yaml", """
            namespace: app
            preferences:
              history.sort_order:
                type: string
                values: [newest_first, oldest_first, alphabetical]
                default: newest_first
            """)
        let inputs = BoardInputs(directory: directory.path + "/flags", statePath: directory.path + "/state.json",
                                 environment: ["SWITCHBOARD_APP__HISTORY__SORT_ORDER": sortOrder])
        return (directory, try Board(inputs: inputs, options: BoardOptions(pollInterval: nil)))
    }

    @Test func aValueWithoutACaseGivesTheDefaultAndAReason() throws {
        let (directory, board) = try board(sortOrder: "alphabetical")
        #expect(board.value(Self.sortOrder) == .newestFirst)
        let details = board.details(Self.sortOrder)
        #expect(details.value == .newestFirst)
        #expect(details.reason == .error)
        #expect(details.errorCode == .typeMismatch)
        #expect(details.errorMessage == "app.history.sort_order is \"alphabetical\", which SortOrder has no case for")
        _ = directory
    }

    @Test func aValueWithACaseIsThatCase() throws {
        let (directory, board) = try board(sortOrder: "oldest_first")
        #expect(board.value(Self.sortOrder) == .oldestFirst)
        let details = board.details(Self.sortOrder)
        #expect(details.reason == .override)
        #expect(details.errorCode == nil)
        _ = directory
    }
}
