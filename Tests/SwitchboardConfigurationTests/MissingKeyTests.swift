import Configuration
import Switchboard
import SwitchboardConfiguration
import Testing

/// A key no definition has is absent: the reader's default applies, or the next provider's value.
@Suite struct MissingKeyTests {
    @Test func aMissingKeyGivesTheDefault() throws {
        let (config, _) = try TestBoard.reader()
        #expect(config.int(forKey: "app.no_such_key") == nil)
        #expect(config.int(forKey: "app.no_such_key", default: 7) == 7)
        #expect(config.stringArray(forKey: "nowhere.at.all", default: ["x"]) == ["x"])
    }

    @Test func aRequiredMissingKeyThrows() throws {
        let (config, _) = try TestBoard.reader()
        #expect(throws: (any Error).self) { try config.requiredBool(forKey: "app.no_such_key") }
    }

    @Test func theProviderReportsNoValueWithTheEncodedKey() throws {
        let provider = SwitchboardProvider(board: try TestBoard.board())
        let result = try provider.value(forKey: AbsoluteConfigKey(["app", "no_such_key"]), type: .int)
        #expect(result == LookupResult(encodedKey: "app.no_such_key", value: nil))
    }

    @Test func theNextProviderAnswersForAMissingKey() throws {
        let board = try TestBoard.board()
        let fallback = InMemoryProvider(values: ["app.no_such_key": 3, "app.max_items": 99])
        let config = ConfigReader(providers: [SwitchboardProvider(board: board), fallback])
        #expect(config.int(forKey: "app.no_such_key") == 3)
        #expect(config.int(forKey: "app.max_items") == 25)
    }
}
