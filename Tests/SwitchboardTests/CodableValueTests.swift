import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// `Codable` types as values of `object` and `list` definitions: decoded straight from the value model, encoded
/// and checked like any other write, and a value that does not decode is the caller's default with the field named.
struct CodableValueTests {
    struct Support: CodableFlagValue, Equatable {
        var email: String
        var hours: [Int]
        var chat: Chat?
        var escalation: Escalation

        struct Chat: Codable, Sendable, Equatable { var enabled: Bool; var greeting: String? }
        struct Escalation: Codable, Sendable, Equatable { var after: Int; var to: [String] }
    }

    struct Steps: CodableFlagValue, Equatable {
        static var valueType: ValueType { .list }
        var steps: [Int]
        init(_ steps: [Int]) { self.steps = steps }
        init(from decoder: any Decoder) throws { steps = try [Int](from: decoder) }
        func encode(to encoder: any Encoder) throws { try steps.encode(to: encoder) }
    }

    static let definitions = """
        namespace: app
        preferences:
          support:
            type: object
            default:
              email: help@example.com
              hours: [9, 17]
              escalation: { after: 30, to: [ops] }
          broken:
            type: object
            default: { email: 42, hours: [], escalation: { after: 1, to: [] } }
          steps:
            type: list
            default: [1, 2, 3]
        """

    static let fallback = Support(email: "none", hours: [], escalation: .init(after: 0, to: []))

    @Test func aNestedStructDecodesFromTheDefinition() throws {
        let project = makeProject(definitions: Self.definitions)
        let board = try openBoard(project.flags)
        let support = board.value(FlagKey("app.support", default: Self.fallback))
        #expect(support == Support(email: "help@example.com", hours: [9, 17], chat: nil,
                                   escalation: .init(after: 30, to: ["ops"])))
    }

    @Test func writingACodableValueRoundTripsThroughTheStore() throws {
        let project = makeProject(definitions: Self.definitions)
        let board = try openBoard(project.flags)
        let written = Support(email: "ops@example.com", hours: [0, 24], chat: .init(enabled: true, greeting: nil),
                              escalation: .init(after: 5, to: ["a", "b"]))
        try board.set("app.support", to: written, actor: "t")
        let again = try openBoard(project.flags)
        #expect(again.value(FlagKey("app.support", default: Self.fallback)) == written)
        // The optional field left out is absent from the stored object, not null.
        let stored = try #require(again.storedOverride("app.support")?.value.objectValue?["chat"]?.objectValue)
        #expect(stored["greeting"] == nil)
    }

    @Test func aMismatchedFieldGivesTheDefaultAndNamesTheField() throws {
        let project = makeProject(definitions: Self.definitions)
        let board = try openBoard(project.flags)
        let details = board.details(FlagKey("app.broken", default: Self.fallback))
        #expect(details.value == Self.fallback)
        #expect(details.reason == .error)
        #expect(details.errorCode == .typeMismatch)
        #expect(details.errorMessage == "broken.email: expected a string, found an int")
    }

    @Test func aMissingFieldIsNamedToo() throws {
        struct Extra: CodableFlagValue, Equatable { var email: String; var pager: String }
        let project = makeProject(definitions: Self.definitions)
        let board = try openBoard(project.flags)
        let details = board.details(FlagKey("app.support", default: Extra(email: "", pager: "")))
        #expect(details.errorCode == .typeMismatch)
        #expect(details.errorMessage?.hasPrefix("support.pager: missing") == true)
    }

    @Test func aListTypeDecodesFromAList() throws {
        let project = makeProject(definitions: Self.definitions)
        let board = try openBoard(project.flags)
        #expect(board.value(FlagKey("app.steps", default: Steps([]))) == Steps([1, 2, 3]))
        try board.set("app.steps", to: Steps([4]), actor: "t")
        #expect(board.list("app.steps", default: []) == [4])
    }

    @Test func aCodableValueTheDefinitionRefusesWritesNothing() throws {
        let project = makeProject(definitions: Self.definitions)
        let board = try openBoard(project.flags)
        #expect(throws: Board.SetError.self) { try board.set("app.steps", to: Self.fallback, actor: "t") }
        #expect(board.storedOverride("app.steps") == nil)
    }

    @Test func encoderAndDecoderAgreeOnEveryShape() throws {
        let value = try ValueEncoder().encode(Support(email: "e", hours: [1], chat: .init(enabled: false, greeting: "hi"),
                                                      escalation: .init(after: 2, to: [])))
        #expect(value == .object([
            "email": "e", "hours": [1], "chat": ["enabled": false, "greeting": "hi"],
            "escalation": ["after": 2, "to": []],
        ]))
        #expect(try ValueDecoder().decode(Support.self, from: value).chat?.greeting == "hi")
        #expect(throws: ValueDecodingError(path: ["hours", "[0]"], message: "expected an int, found a string")) {
            try ValueDecoder().decode([String: [Int]].self, from: ["hours": ["x"]])
        }
    }
}
