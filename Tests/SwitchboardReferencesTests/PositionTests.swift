import Foundation
import SwiftParser
import SwiftSyntax
import SwitchboardReferences
import Testing

/// Positions are 1-based lines and UTF-8 columns, as swift-syntax's `SourceLocationConverter` gives them, whatever
/// ends the lines.
struct PositionTests {
    @Test(arguments: ["\n", "\r\n", "\r"])
    func positionsAgreeWithSwiftSyntaxWhateverEndsTheLines(newline: String) {
        let source = ["// é ü — comment", "let a = \"ø\"; _ = board.bool(\"shop.new_flow\")", "",
                      "  _ = board.value(Flags.Shop.maxItems)"].joined(separator: newline)
        let result = scan(source)
        let tree = Parser.parse(source: source)
        let converter = SourceLocationConverter(fileName: "Test.swift", tree: tree)
        let expected = ["\"shop.new_flow\"", "Flags"].map { needle -> String in
            let offset = source.utf8.count - source[source.range(of: needle)!.lowerBound...].utf8.count
            let location = converter.location(for: AbsolutePosition(utf8Offset: offset))
            return "Test.swift:\(location.line):\(location.column)"
        }
        #expect(result.references.map(\.position.description) == expected)
        #expect(expected == ["Test.swift:2:30", "Test.swift:4:19"])
    }
}
