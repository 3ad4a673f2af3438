import Foundation
@testable import SwitchboardReferences
import Testing

/// The unified diff `retire --dry-run` prints: hunks with three lines of context, as `diff -u` writes them.
struct UnifiedDiffTests {
    @Test func aRemovedLineInTheMiddle() {
        let before = (1...10).map { "line \($0)" }.joined(separator: "\n") + "\n"
        let after = before.replacingOccurrences(of: "line 5\n", with: "")
        #expect(UnifiedDiff.render(path: "f", before: before, after: after) == """
            --- a/f
            +++ b/f
            @@ -2,7 +2,6 @@
             line 2
             line 3
             line 4
            -line 5
             line 6
             line 7
             line 8

            """)
    }

    @Test func distantChangesMakeTwoHunksAndEqualTextsNone() {
        let before = (1...20).map { "l\($0)" }.joined(separator: "\n")
        let after = before.replacingOccurrences(of: "l2\n", with: "two\n")
            .replacingOccurrences(of: "l19\n", with: "")
        let diff = UnifiedDiff.render(path: "f", before: before, after: after)
        #expect(diff.components(separatedBy: "\n@@").count == 3)
        #expect(diff.contains("@@ -1,5 +1,5 @@\n l1\n-l2\n+two\n l3\n"))
        #expect(diff.contains("-l19\n"))
        #expect(UnifiedDiff.render(path: "f", before: before, after: before) == "")
    }
}
