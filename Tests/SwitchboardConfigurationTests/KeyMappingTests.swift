import Configuration
import Switchboard
import SwitchboardConfiguration
import Testing

/// Switchboard's dotted keys are swift-configuration's dotted keys: `namespace.key` is the absolute key
/// `namespace.key`, whether written as one string, as components, or through a scoped reader.
@Suite struct KeyMappingTests {
    @Test func aNamespacedKeyIsTheAbsoluteKey() throws {
        let (config, _) = try TestBoard.reader()
        #expect(config.bool(forKey: "app.dark_mode") == true)
        #expect(config.bool(forKey: ConfigKey(["app", "dark_mode"])) == true)
        #expect(config.string(forKey: ConfigKey(["app", "history", "sort_order"])) == "newest_first")
    }

    @Test func aScopedReaderReadsTheRestOfTheKey() throws {
        let (config, _) = try TestBoard.reader()
        #expect(config.scoped(to: "app").int(forKey: "max_items") == 25)
        #expect(config.scoped(to: "app.history").string(forKey: "sort_order") == "newest_first")
        #expect(config.scoped(to: "app").scoped(to: "history").string(forKey: "sort_order") == "newest_first")
    }

    @Test func keysAreNotConverted() throws {
        let (config, _) = try TestBoard.reader()
        #expect(config.int(forKey: "app.maxItems") == nil)
        #expect(config.int(forKey: "APP.MAX_ITEMS") == nil)
        #expect(config.bool(forKey: "dark_mode") == nil)
    }

    @Test func mapKeysConvertsCamelCase() throws {
        let board = try TestBoard.board()
        let provider = SwitchboardProvider(board: board).mapKeys { key in
            AbsoluteConfigKey(key.components.map(Self.snakeCase), context: key.context)
        }
        #expect(ConfigReader(provider: provider).int(forKey: "app.maxItems") == 25)
    }

    static func snakeCase(_ component: String) -> String {
        var result = ""
        for character in component {
            if character.isUppercase { result += "_" + character.lowercased() } else { result.append(character) }
        }
        return result
    }
}
