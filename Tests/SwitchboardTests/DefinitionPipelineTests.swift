import Foundation
import Testing
import YAML

@testable import Switchboard

/// Large definitions files are read on two threads (`DefinitionPipeline`). The definitions, their order and
/// every diagnostic must be what reading the file in one piece gives.
struct DefinitionPipelineTests {
    /// A large file with valid definitions of every kind and mistakes of many kinds among them.
    static func file(count: Int) -> String {
        var text = "namespace: shop\nsegments:\n  pros: [{ attribute: plan, equals: pro }]\nflags:\n"
        for i in 0..<count {
            switch i % 10 {
            case 0: text += "  on_\(i):\n    type: bool\n    default: true\n    owner: team\n    tags: [a, b]\n"
            case 1: text += "  limit_\(i): { type: int, default: \(i), min: 0, max: 100000 }\n"
            case 2: text += "  color_\(i):\n    type: string\n    variants: { a: red, b: blue }\n    default: a\n"
            case 3: text += "  typo_\(i):\n    type: bool\n    defualt: true\n"  // misspelt field
            case 4: text += "  wrong_\(i):\n    type: int\n    default: many\n"  // not an int
            case 5: text += "  old_\(i):\n    type: bool\n    default: false\n    expires: 2001-01-01\n"  // expired
            case 6: text += "  Bad_Key_\(i):\n    type: bool\n    default: true\n"  // invalid key
            case 7:
                text += "  ruled_\(i):\n    type: bool\n    default: false\n"
                text += "    rules:\n      - segment: pros\n        serve: true\n"
            case 8: text += "  on_\(i - 8):\n    type: bool\n    default: false\n"  // a duplicate YAML key
            default: text += "  ratio_\(i):\n    type: double\n    default: 0.5\n    max: 0.1\n"  // out of bounds
            }
        }
        text += "preferences:\n"
        for i in 0..<count / 4 { text += "  pref_\(i): { type: string, default: x\(i), pattern: \"^x[0-9]+$\" }\n" }
        return text
    }

    static func summary(_ parser: DefinitionParser) -> [String] {
        parser.definitions.map { "\($0.key) \($0.kind) \($0.type) \($0.defaultValue) \($0.location) \($0.pending != nil)" }
            + parser.diagnostics.map(\.description)
            + parser.segments.map { "segment \($0.name) \($0.location)" }
    }

    @Test("two threads give what one gives, in the same order")
    func sameAsOnePiece() {
        let bytes = Array(Self.file(count: 4000).utf8)
        let today = Day("2026-11-22")!
        let file = "flags/shop.yaml"
        let split = DefinitionPipeline.parse(bytes, file: file, today: today, reading: .entries(threads: 2))
        let whole = DefinitionPipeline.parse(bytes, file: file, today: today, reading: .inOnePiece)
        #expect(!whole.definitions.isEmpty && !whole.diagnostics.isEmpty)
        #expect(Self.summary(split) == Self.summary(whole))
    }

    @Test("a file the split cannot take is read in one piece, with the same result")
    func fallsBack() {
        let today = Day("2026-11-22")!
        for text in [
            Self.file(count: 50) + "  anchored: &a { type: bool, default: true }\n",  // an anchor: read in one piece
            "flags:\n  first: { type: bool, default: true }\nnamespace: late\n",  // namespace after the flags
            Self.file(count: 50) + "  broken: [\n",  // a syntax error
            // A second `flags:` is dropped whole, as YAML drops a repeated key.
            Self.file(count: 50) + "flags:\n  extra: { type: bool, default: true }\n",
            // A mapping left whole (it has a tag) after a split one: the file keeps its order.
            Self.file(count: 50).components(separatedBy: "preferences:\n")[0]
                + "preferences: !!map\n  on-0: { type: bool, default: true }\n",
        ] {
            let bytes = Array(text.utf8)
            let split = DefinitionPipeline.parse(bytes, file: "f.yaml", today: today, reading: .entries(threads: 2))
            let whole = DefinitionPipeline.parse(bytes, file: "f.yaml", today: today, reading: .inOnePiece)
            #expect(Self.summary(split) == Self.summary(whole))
        }
    }

    @Test("a whole load of a large file matches the one-piece load")
    func load() {
        let bytes = Array(Self.file(count: 3000).utf8)
        #expect(bytes.count >= DefinitionPipeline.concurrencyThreshold)
        let today = Day("2026-11-22")!
        let report = DefinitionLoader.load(sources: [("flags/shop.yaml", bytes)], today: today)
        let whole = DefinitionPipeline.parse(bytes, file: "flags/shop.yaml", today: today, reading: .inOnePiece)
        #expect(report.registry.definitions.map(\.key) == whole.definitions.map(\.key))
        #expect(report.diagnostics.map(\.description) == Diagnostic.sorted(whole.diagnostics).map(\.description))
        #expect(report.hasErrors)
    }
}
