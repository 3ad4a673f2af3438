import Configuration
import Switchboard
import SwitchboardConfiguration
import Testing

/// A value read as another type is the provider's error, as in swift-configuration's own providers: a read with a
/// default gives the default, a required read throws, and the providers after this one are not asked.
@Suite struct TypeMismatchTests {
    @Test func aMismatchGivesTheDefault() throws {
        let (config, _) = try TestBoard.reader()
        #expect(config.bool(forKey: "app.max_items") == nil)
        #expect(config.string(forKey: "app.dark_mode", default: "fallback") == "fallback")
        #expect(config.intArray(forKey: "app.tags") == nil)
    }

    @Test func aRequiredReadThrowsTheMismatch() throws {
        let (config, _) = try TestBoard.reader()
        let error = #expect(throws: SwitchboardProvider.TypeMismatch.self) {
            try config.requiredBool(forKey: "app.max_items")
        }
        #expect(error == SwitchboardProvider.TypeMismatch(key: "app.max_items", value: 25, requestedType: .bool))
        #expect(error?.description
            == "Config value for key 'app.max_items' failed to convert to type bool: it is an int.")
    }

    @Test func anIntIsNotADouble() throws {
        let (config, _) = try TestBoard.reader()
        #expect(config.double(forKey: "app.max_items") == nil)
        #expect(throws: SwitchboardProvider.TypeMismatch.self) { try config.requiredDouble(forKey: "app.max_items") }
    }

    @Test(arguments: [
        ("app.limits", ConfigType.string,
         "Config value for key 'app.limits' failed to convert to type string: it is an object, which has no "
            + "swift-configuration type."),
        ("app.mixed", .stringArray,
         "Config value for key 'app.mixed' failed to convert to type stringArray: it is a list whose elements are "
            + "not all strings."),
        ("app.tags", .string, "Config value for key 'app.tags' failed to convert to type string: it is a list."),
        ("app.theme", .bytes, "Config value for key 'app.theme' failed to convert to type bytes: it is a string."),
    ])
    func whatCannotMapIsAMismatch(key: String, type: ConfigType, message: String) throws {
        let provider = SwitchboardProvider(board: try TestBoard.board())
        let error = #expect(throws: SwitchboardProvider.TypeMismatch.self) {
            try provider.value(forKey: AbsoluteConfigKey(ConfigKey(key)), type: type)
        }
        #expect(error?.description == message)
    }

    @Test func anObjectIsNeitherReadableNorAbsent() throws {
        let board = try TestBoard.board()
        let fallback = InMemoryProvider(values: ["app.limits": "from the next provider"])
        let config = ConfigReader(providers: [SwitchboardProvider(board: board), fallback])
        #expect(config.string(forKey: "app.limits") == nil)
        #expect(throws: SwitchboardProvider.TypeMismatch.self) { try config.requiredString(forKey: "app.limits") }
    }
}
