import Testing
import YAML

/// The node tree: positions on every node, aliases resolved, duplicate keys reported without stopping.
struct NodeTreeTests {
    @Test func everyNodeCarriesItsPosition() throws {
        let text = "flags:\n  a:\n    type: bool\n    tags: [x, y]\n"
        let document = YAMLParser.parse(Array(text.utf8), file: "f.yaml")
        let root = try #require(document.root)
        #expect(root.location == SourceLocation(file: "f.yaml", line: 1, column: 1))
        let a = try #require(root.pairs?[0].value.pairs?[0])
        #expect(a.key.location.line == 2 && a.key.location.column == 3)
        let tags = try #require(a.value.pairs?[1].value)
        #expect(tags.location.line == 4 && tags.location.column == 11)
        #expect(tags.items?[1].location.column == 15)
    }

    @Test func aliasesResolveToTheAnchoredNode() throws {
        let text = "base: &b {type: int, default: 1}\ncopy: *b\n"
        let document = YAMLParser.parse(Array(text.utf8), file: "f.yaml")
        let pairs = try #require(document.root?.pairs)
        #expect(pairs[1].value.pairs?.count == 2)
        #expect(pairs[1].value.pairs?[1].value.scalar?.value == .int(1))
    }

    @Test func undefinedAliasIsAnError() {
        let document = YAMLParser.parse(Array("a: *nope\n".utf8), file: "f.yaml")
        #expect(document.problems.first?.message == "alias *nope refers to no anchor defined before it")
    }

    @Test func duplicateKeysAreAllReportedAndParsingGoesOn() throws {
        let text = "a: 1\nb: 2\na: 3\nb: 4\n"
        let document = YAMLParser.parse(Array(text.utf8), file: "f.yaml")
        #expect(document.problems.map(\.location.line) == [3, 4])
        #expect(document.problems.allSatisfy { !$0.isFatal })
        #expect(document.root?.pairs?.count == 2)
    }

    @Test func limitsAreConfigurable() {
        let deep = YAMLParser.parse(Array("a: [[[1]]]\n".utf8), file: "f.yaml", limits: .init(maxDepth: 3))
        #expect(deep.problems.first?.message == "nesting deeper than 3 levels")
        let wide = YAMLParser.parse(Array("a: &a [1, 2]\nb: [*a, *a, *a]\n".utf8), file: "f.yaml",
                                    limits: .init(maxNodes: 8))
        #expect(wide.problems.first?.message.hasPrefix("aliases expand to more than 8 nodes") == true)
        // Past the budget without any alias the file is only large, and is told so.
        let large = YAMLParser.parse(Array("a: [1, 2, 3, 4, 5, 6, 7, 8]\n".utf8), file: "f.yaml",
                                     limits: .init(maxNodes: 8))
        #expect(large.problems.first?.message
                == "the file is past its budget of 8 nodes (each counted at every level it is nested in)")
        #expect(large.problems.first?.hint?.hasPrefix("split it into several files") == true)
    }

    @Test func eventScanCountsEvents() {
        #expect(YAMLParser.scanEvents(Array("a: 1\n".utf8)) == 8)
        #expect(YAMLParser.scanEvents(Array("a: 'x\n".utf8)) == -1)
    }

    @Test func tabHintSurvivesNonASCIITextBeforeIt() {
        let document = YAMLParser.parse(Array("# ééééééé\nflags:\n  a:\n\ttype: bool\n".utf8), file: "f.yaml")
        #expect(document.problems.first?.hint == "YAML indentation must use spaces; replace the tab with spaces")
    }
}
