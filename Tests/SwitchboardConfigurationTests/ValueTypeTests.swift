import Configuration
import Switchboard
import SwitchboardConfiguration
import Testing

/// Every Switchboard type that has a swift-configuration type reads as that type through `ConfigReader`.
@Suite struct ValueTypeTests {
    @Test func scalarsReadAsTheirOwnTypes() throws {
        let (config, _) = try TestBoard.reader()
        #expect(config.bool(forKey: "app.dark_mode") == true)
        #expect(config.int(forKey: "app.max_items") == 25)
        #expect(config.double(forKey: "app.ratio") == 0.75)
        #expect(config.string(forKey: "app.theme") == "ocean")
        #expect(try config.requiredInt(forKey: "app.max_items") == 25)
    }

    @Test func aDoubleDefinitionIsADoubleEvenWhenWhole() throws {
        let (config, _) = try TestBoard.reader()
        #expect(config.double(forKey: "app.whole_ratio") == 2.0)
        #expect(config.int(forKey: "app.whole_ratio") == nil)
    }

    @Test func listsReadAsTheArrayTypeOfTheirElements() throws {
        let (config, _) = try TestBoard.reader()
        #expect(config.stringArray(forKey: "app.tags") == ["alpha", "beta"])
        #expect(config.intArray(forKey: "app.ports") == [80, 443])
        #expect(config.boolArray(forKey: "app.switches") == [true, false])
        #expect(config.doubleArray(forKey: "app.weights") == [1.0, 2.5])
        #expect(config.doubleArray(forKey: "app.ports") == [80.0, 443.0])
    }

    @Test func anEmptyListIsAnEmptyArrayOfAnyType() throws {
        let (config, _) = try TestBoard.reader()
        #expect(config.stringArray(forKey: "app.nothing") == [])
        #expect(config.intArray(forKey: "app.nothing") == [])
        #expect(config.doubleArray(forKey: "app.nothing") == [])
        #expect(config.boolArray(forKey: "app.nothing") == [])
    }

    @Test func aPreferenceWithValuesReadsAsAnEnum() throws {
        let (config, _) = try TestBoard.reader()
        #expect(config.string(forKey: "app.history.sort_order", as: SortOrder.self) == .newestFirst)
    }

    @Test func runtimeOverridesAreWhatTheReaderSees() throws {
        let (config, board) = try TestBoard.reader()
        try board.set("app.max_items", to: 40, actor: "test")
        try board.set("app.tags", to: ["gamma"] as Value, actor: "test")
        #expect(config.int(forKey: "app.max_items") == 40)
        #expect(config.stringArray(forKey: "app.tags") == ["gamma"])
    }

    @Test func valuesAreNotSecret() throws {
        let board = try TestBoard.board()
        let provider = SwitchboardProvider(board: board)
        let result = try provider.value(forKey: AbsoluteConfigKey("app.theme"), type: .string)
        #expect(result.value == ConfigValue(.string("ocean"), isSecret: false))
        #expect(result.encodedKey == "app.theme")
    }
}
