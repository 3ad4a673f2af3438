import LineEditor
import Switchboard
import SwitchboardTestSupport
import Testing
@testable import SwitchboardREPL

struct CompleterTests {
    let project = replProject()

    func complete(_ line: String, attributes: [String] = []) throws -> LineEditor.Completion {
        Completer(registry: try project.board().registry, attributes: attributes)
            .complete(line, cursor: line.count)
    }

    @Test func commandNames() throws {
        #expect(try complete("") .candidates.count == CommandInfo.names.count)
        #expect(try complete("ex") == .init(candidates: ["explain ", "exit "], replacing: 0..<2))
        #expect(try complete("tog") == .init(candidates: ["toggle "], replacing: 0..<3))
        #expect(try complete("nothing").candidates.isEmpty)
    }

    @Test func keysCompleteOneNamespaceSegmentAtATime() throws {
        #expect(try complete("get ").candidates == ["app.", "checkout."])
        #expect(try complete("get ch") == .init(candidates: ["checkout."], replacing: 4..<6))
        #expect(try complete("get app.up").candidates == ["app.upload."])
        #expect(try complete("get app.upload.").candidates == ["app.upload.max_mb ", "app.upload.timeout "])
        #expect(try complete("explain app.the") == .init(candidates: ["app.theme "], replacing: 8..<15))
    }

    @Test func aWordAfterANamespaceDotFindsTheWholeKey() throws {
        #expect(try complete("get express") == .init(candidates: ["checkout.express_pay "], replacing: 4..<11))
        #expect(try complete("get new_fl").candidates == ["app.new_flow ", "checkout.new_flow "])
    }

    @Test func toggleOffersOnlyBoolKeys() throws {
        #expect(try complete("toggle app.").candidates == ["app.new_flow ", "app.dark_mode "])
        #expect(try complete("toggle app.th").candidates.isEmpty)
    }

    @Test func resetOffersKeysAndAll() throws {
        #expect(try complete("reset --").candidates == ["--all "])
        #expect(try complete("reset ").candidates == ["app.", "checkout.", "--all "])
    }

    @Test func valuesOfBoolsVariantsAndAllowedValues() throws {
        #expect(try complete("set app.new_flow ").candidates == ["true", "false"])
        #expect(try complete("set app.new_flow t") == .init(candidates: ["true"], replacing: 17..<18))
        #expect(try complete("set app.button_color ").candidates == ["control", "treatment"])
        #expect(try complete("set app.theme d").candidates == ["dark"])
        #expect(try complete("set app.motd ").candidates.isEmpty)
        #expect(try complete("set app.nokey ").candidates.isEmpty)
    }

    @Test func contextAndHelp() throws {
        #expect(try complete("context ").candidates == ["clear ", "targetingKey="])
        #expect(try complete("context ", attributes: ["plan"]).candidates == ["clear ", "targetingKey=", "plan="])
        #expect(try complete("context clear ", attributes: ["plan", "age"]).candidates == ["plan ", "age "])
        #expect(try complete("help to").candidates == ["toggle"])
    }

    @Test func theCursorDecidesTheWord() throws {
        let completer = Completer(registry: try project.board().registry, attributes: [])
        // Completing the command while the rest of the line stays.
        #expect(completer.complete("expl app.theme", cursor: 4) == .init(candidates: ["explain "], replacing: 0..<4))
    }

    @Test func quotedWordsKeepTheirQuotes() throws {
        let completion = try complete("set app.theme 'da")
        #expect(completion == .init(candidates: ["'dark'"], replacing: 14..<17))
    }
}
