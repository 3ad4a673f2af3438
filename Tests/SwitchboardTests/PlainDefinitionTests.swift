import Foundation
import Locking
import Testing
import YAML
import SwitchboardTestSupport

@testable import Switchboard

/// A plain definition is read straight from libyaml's events (`DefinitionParser.appendPlainDefinition`), any other from
/// its nodes. Both must give the same definition, and an entry with any mistake must be left to the nodes, which
/// report it.
struct PlainDefinitionTests {
    static let today = Day("2026-11-22")!

    /// Entries read from their events: each gives a definition with no diagnostic.
    static let plain = [
        "on:\n  type: bool\n  default: true\n",
        "release:\n  description: Ships the new checkout.\n  type: bool\n  default: false\n  owner: team-payments\n"
            + "  tags: [checkout, 'wave 2']\n  expires: 2030-01-15\n  renamed_from: [shop.old_release, shop.older]\n",
        "moved: { type: bool, default: true, renamed_from: shop.before }\n",
        "colour:\n  type: string\n  variants: { control: blue, treatment: \"green\", holdout: 'grey' }\n"
            + "  default: treatment\n",
        "limit: { type: int, default: 3, min: 1, max: 1000 }\n",
        "hex: { type: int, default: 0x1F, min: -5 }\n",
        "ratio:\n  type: double\n  default: 1\n  min: 0.0\n  max: 1.5e1\n",
        "sort:\n  type: string\n  values: [newest_first, oldest_first, \"alphabetical\"]\n  default: oldest_first\n",
        "steps: { type: int, values: [1, 2, 3], default: 2 }\n",
        "locale: { type: string, default: en-US, pattern: \"^[a-z]{2}(-[A-Z]{2})?$\" }\n",
        "sections:\n  type: list\n  default: [recent, favorites, \"section 5\", 7, [nested], { a: 1 }]\n",
        "support:\n  type: object\n"
            + "  default: { email: help@example.com, chat: false, hours: { from: 9, to: 17 }, days: [] }\n",
        "layouts:\n  type: object\n  variants:\n    compact: { rows: 2 }\n    wide: { rows: 1, ads: [top] }\n"
            + "  default: wide\n",
        "lists:\n  type: list\n  variants: { one: [a], two: [a, b] }\n  default: two\n",
        "texts:\n  description: |\n    A block\n    of text, with ü and 😀.\n"
            + "  type: string\n  default: >\n    folded\n    text\n",
        "empty_text: { type: string, default: '', description: ~, owner: \"\" }\n",
        "\"quoted-key\": { \"type\": bool, \"default\": true }\n",
        "no_tags: { type: bool, default: true, tags: [] }\n",
    ]

    /// Entries left to the nodes: a mistake of some kind (reported), targeting, a tag, or something only the tree
    /// reports.
    static let notPlain = [
        "old: { type: bool, default: false, expires: 2001-01-01 }\n",  // expired: a warning
        "when: { type: bool, default: false, expires: tomorrow }\n",
        "typo: { type: bool, defualt: true }\n",
        "extra: { type: bool, default: true, colour: red }\n",
        "no_type: { default: true }\n",
        "no_default: { type: bool }\n",
        "bad_type: { type: boolean, default: true }\n",
        "wrong: { type: int, default: many }\n",
        "nan: { type: double, default: .nan }\n",
        "big: { type: double, default: .inf }\n",
        "null_string: { type: string, default: ~ }\n",
        "not_variant: { type: string, variants: { a: x }, default: b }\n",
        "bad_variant: { type: int, variants: { a: x, b: 2 }, default: b }\n",
        "empty_variants: { type: int, variants: {}, default: 1 }\n",
        "out_of_range_variant: { type: int, max: 3, variants: { a: 9 }, default: a }\n",
        "swapped: { type: int, default: 3, min: 10, max: 1 }\n",
        "below: { type: int, default: 0, min: 1 }\n",
        "both: { type: string, variants: { a: x }, values: [x], default: a }\n",
        "twice: { type: int, values: [1, 1.0], default: 1 }\n",
        "empty_values: { type: int, values: [], default: 1 }\n",
        "bool_values: { type: bool, values: [true], default: true }\n",
        "bad_pattern: { type: string, default: x, pattern: \"(\" }\n",
        "no_match: { type: string, default: x, pattern: \"^y$\" }\n",
        "int_pattern: { type: int, default: 1, pattern: \"^1$\" }\n",
        "string_min: { type: string, default: x, min: 1 }\n",
        "tags_text: { type: bool, default: true, tags: checkout }\n",
        "tags_nested: { type: bool, default: true, tags: [[a]] }\n",
        "owner_list: { type: bool, default: true, owner: [a] }\n",
        "tagged: { type: !!str bool, default: true }\n",
        "tagged_default: { type: string, default: !!str 12 }\n",
        "ruled:\n  type: bool\n  default: false\n"
            + "  rules:\n    - attribute: plan\n      equals: pro\n      serve: true\n",
        "bucketed: { type: bool, default: false, bucketing: user }\n",
        "field_twice: { type: bool, default: true, default: false }\n",
        "variant_twice: { type: string, variants: { a: x, a: y }, default: a }\n",
        "member_twice: { type: object, default: { a: 1, a: 2 } }\n",
        "Bad_Key: { type: bool, default: true }\n",
        "renamed_bad: { type: bool, default: true, renamed_from: [Not Valid] }\n",
        "scalar_definition: true\n",
        "list_object: { type: object, default: [1] }\n",
    ]

    /// A whole description of a definition: every stored field, locations included. Values print as JSON with
    /// sorted keys (two equal objects can list their members in different orders).
    static func render(_ definition: Definition) -> String {
        Mirror(reflecting: definition).children.map { "\($0.label ?? "?"): \($0.value)" }.joined(separator: "\n")
    }

    /// What the entry's events give, read as the pipeline reads them.
    static func readPlain(_ entry: String, kind: Definition.Kind = .flag) -> String? {
        let section = kind == .flag ? "flags" : "preferences"
        let result = Locked<String?>(nil)
        let splitting = YAMLParser.Splitting(
            shouldSplit: { key, _ in key == section },
            read: { _, _, _, events in
                var parser = DefinitionParser(file: "flags/shop.yaml", today: today)
                let read = parser.appendPlainDefinition(events, kind: kind, namespace: "shop")
                // One definition when the entry is plain, none when it is not.
                #expect(parser.definitions.count == (read ? 1 : 0))
                result.withLock { $0 = read ? parser.definitions.first.map(render) : nil }
                return true
            },
            receive: { _, _, _, _ in })
        let text = "namespace: shop\n\(section):\n" + indented(entry)
        #expect(YAMLParser.parse(Array(text.utf8), file: "flags/shop.yaml", splitting: splitting, threads: 1) != nil,
                "the split declined \(entry)")
        return result.withLock { $0 }
    }

    /// What reading the whole document's nodes gives: the definitions and the diagnostics.
    static func readWhole(_ text: String) -> (definitions: [String], diagnostics: [String]) {
        let parser = DefinitionPipeline.parse(Array(text.utf8), file: "flags/shop.yaml", today: today,
                                              reading: .inOnePiece)
        return (parser.definitions.map(render), parser.diagnostics.map(\.description))
    }

    @Test("a plain entry's events give the definition its nodes give", arguments: [Definition.Kind.flag, .preference])
    func plainEntries(kind: Definition.Kind) {
        for entry in Self.plain {
            let section = kind == .flag ? "flags" : "preferences"
            let whole = Self.readWhole("namespace: shop\n\(section):\n" + Self.indented(entry))
            #expect(whole.diagnostics.isEmpty, "\(entry): \(whole.diagnostics)")
            #expect(Self.readPlain(entry, kind: kind) == whole.definitions.first, "\(entry)")
        }
    }

    // The events' field names are matched on their bytes: every field by its own name, nothing else, not even a
    // name of the same length with the same first and last letters.
    @Test("every field name is found from its bytes, and only it")
    func fieldNamesFromBytes() {
        for (index, name) in DefinitionParser.definitionFields.enumerated() {
            let bytes = Array(name.utf8)
            #expect(bytes.withUnsafeBufferPointer(FieldTable.Field.init(bytes:))?.rawValue == index, "\(name)")
            #expect(FieldTable.Field(name: name)?.rawValue == index)
        }
        for near in ["tyqe", "dexcription", "Type", "typ", "types", "ma", "renamed-from", "", "d\u{e9}fault"] {
            #expect(Array(near.utf8).withUnsafeBufferPointer(FieldTable.Field.init(bytes:)) == nil, "\(near)")
            #expect(FieldTable.Field(name: near) == nil)
        }
    }

    @Test("an entry with a mistake, targeting or a tag is left to its nodes")
    func entriesLeftToNodes() {
        for entry in Self.notPlain {
            #expect(Self.readPlain(entry) == nil, "\(entry)")
        }
    }

    @Test("a file read entry by entry gives what the whole document gives, on one thread or two")
    func wholeFiles() {
        var text = "namespace: shop\nsegments:\n  pros: [{ attribute: plan, equals: pro }]\nflags:\n"
        for (index, entry) in (Self.plain + Self.notPlain).enumerated() {
            // Distinct keys (a quoted one is written once).
            let renamed = entry.hasPrefix("\"") ? entry
                : entry.replacingOccurrences(of: ":", with: "_\(index):", range: entry.range(of: ":"))
            text += Self.indented(renamed)
        }
        text += "preferences:\n" + Self.plain.map(Self.indented).joined()
        let whole = Self.readWhole(text)
        #expect(whole.definitions.count >= Self.plain.count && !whole.diagnostics.isEmpty)
        for threads in [1, 2] {
            let parser = DefinitionPipeline.parse(Array(text.utf8), file: "flags/shop.yaml", today: Self.today,
                                                  reading: .entries(threads: threads))
            #expect(parser.definitions.map(Self.render) == whole.definitions, "threads: \(threads)")
            #expect(parser.diagnostics.map(\.description) == whole.diagnostics, "threads: \(threads)")
        }
    }

    @Test("every fixture file gives the same definitions and diagnostics entry by entry as whole")
    func fixtureFiles() throws {
        let root = fixtures.root
        for folder in ["valid", "invalid", "schedules"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
                .filter { $0.hasSuffix(".yaml") }.sorted()
            #expect(!names.isEmpty)
            for name in names {
                let bytes = try fixtures.bytes(folder + "/" + name)
                let whole = DefinitionPipeline.parse(bytes, file: name, today: Self.today, reading: .inOnePiece)
                let entries = DefinitionPipeline.parse(bytes, file: name, today: Self.today,
                                                       reading: .entries(threads: 1))
                let place = "\(folder)/\(name)"
                #expect(entries.definitions.map(Self.render) == whole.definitions.map(Self.render), "\(place)")
                #expect(entries.diagnostics.map(\.description) == whole.diagnostics.map(\.description), "\(place)")
            }
        }
    }

    static func indented(_ entry: String) -> String {
        entry.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "  " + $0 }
            .joined(separator: "\n")
    }
}
