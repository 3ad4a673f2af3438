import Switchboard
import SwitchboardTestSupport
import Testing

/// The exact text of every message the CLI, the REPL and the server share.
@Suite struct MessageCatalogTests {
    @Test(arguments: [
        (Message.unknownKey("app.them", suggestions: ["app.theme"]),
         "unknown key 'app.them'", "did you mean 'app.theme'?"),
        (Message.unknownKey("zzz", suggestions: []),
         "unknown key 'zzz'", "list the keys to see which are defined"),
        (Message.unknownKey("a.b", suggestions: ["a.c", "a.d"]),
         "unknown key 'a.b'", "did you mean 'a.c', 'a.d'?"),
        (Message.refusedValue(key: "app.max", problem: ValueProblem("1000 is above the maximum 500 of app.max"),
                              type: .int),
         "refused value for app.max: 1000 is above the maximum 500 of app.max; nothing was written",
         "app.max is an int"),
        (Message.refusedValue(key: "app.theme", problem: ValueProblem("expected a string", hint: "quote it"),
                              type: .string),
         "refused value for app.theme: expected a string; nothing was written", "quote it"),
        (Message.summary(errors: 1, warnings: 0), "1 error, 0 warnings", nil),
        (Message.summary(errors: 2, warnings: 1), "2 errors, 1 warning", nil),
        (Message.typeMismatch(key: "app.n", found: .string("x"), expected: .int, swiftType: "Int"),
         "app.n is a string, not an int", nil),
        (Message.typeMismatch(key: "app.sort", found: .string("abc"), expected: .string, swiftType: "SortOrder"),
         "app.sort is \"abc\", which SortOrder has no case for", nil),
    ] as [(Message, String, String?)])
    func rendersExactly(message: Message, text: String, hint: String?) {
        #expect(message.text == text)
        #expect(message.hint == hint)
    }

    @Test func kindsHaveOneName() {
        #expect(ValueType.int.withArticle == "an int")
        #expect(ValueType.object.withArticle == "an object")
        #expect(ValueType.list.withArticle == "a list")
        #expect(Value.int(3).kindDescription == "an int")
    }

    @Test func theBoardAndTheCatalogAgree() throws {
        let error = Board.SetError.unknownKey("a.b", suggestions: ["a.c"])
        #expect(error.description == "unknown key 'a.b'\n  hint: did you mean 'a.c'?")
        #expect(error.message == .unknownKey("a.b", suggestions: ["a.c"]))
    }
}
