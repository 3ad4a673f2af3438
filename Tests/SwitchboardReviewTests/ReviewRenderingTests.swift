import Foundation
import Switchboard
import SwitchboardTerminal
import SwitchboardReview
import Testing

/// The markdown for a pull request comment, its cut, the JSON shape and the terminal text.
@Suite struct ReviewRenderingTests {
    static let base = "flags:\n  a:\n    type: bool\n    default: false\n  b:\n    type: int\n    default: 1\n"
    static let head = "flags:\n  a:\n    type: bool\n    default: true\n  c:\n    type: int\n    default: 1\n"

    func sample() throws -> Review {
        try review(Self.base, Self.head, population: Population(contexts: [EvaluationContext(targetingKey: "u")]))
    }

    @Test func markdownIsATableThenTheRisks() throws {
        #expect(try sample().markdown() == """
            ### Flag changes: `base` → `head`

            3 keys changed (1 added, 1 removed, 1 modified); 1 breaking risk.

            | key | change | fields | impact |
            |---|---|---|---|
            | `a` | modified | `default` | 1 of 1 contexts change: false 100% (1) → true 100% (1) |
            | `b` | removed |  |  |
            | `c` | added |  |  |

            **Breaking** (1):

            - `b`: removed while c was added with the same type (int) and no owner: a rename without \
            `renamed_from: [b]` drops its stored overrides

            _Note: removed or renamed keys still read by code were not checked: `switchboard refs` lists the code \
            that reads each key._

            """)
    }

    @Test func markdownIsCutWithANoteBeforeTheLimit() throws {
        let many = (0..<3_000).map { "  key_\($0):\n    type: bool\n    default: false\n" }.joined()
        let result = try review("flags:\n" + many, "flags:\n" + many.replacingOccurrences(of: "false", with: "true"))
        let full = result.markdown(limit: .max)
        #expect(full.count > Review.commentLimit)
        let cut = result.markdown()
        #expect(cut.count < Review.commentLimit)
        #expect(cut.contains("more entries did not fit in a comment; run `switchboard diff` for the rest._\n"))
        #expect(cut.hasSuffix("_\n"))
    }

    @Test func jsonHasTheDocumentedShape() throws {
        #expect(try sample().jsonValue.json == """
            {"base":"base","breaking":[{"key":"b","reason":"removed while c was added with the same type (int) and \
            no owner: a rename without `renamed_from: [b]` drops its stored overrides"}],"changes":[{"change":\
            "modified","details":["default: false → true"],"fields":["default"],"impact":{"after":{"true":1},\
            "before":{"false":1},"changed":1,"contexts":1},"key":"a"},{"change":"removed","details":[],"fields":[],\
            "key":"b"},{"change":"added","details":[],"fields":[],"key":"c"}],"head":"head","notes":["removed or \
            renamed keys still read by code were not checked: `switchboard refs` lists the code that reads each key"]}
            """)
    }

    @Test func textForATerminal() throws {
        let text = try sample().text(terminal: Terminal(fd: 1, colors: false))
        #expect(text == """
            base → head: 3 keys changed (1 added, 1 removed, 1 modified); 1 breaking risk.

            ~ modified a  default
                default: false → true
                impact: 1 of 1 contexts change: false 100% (1) → true 100% (1)

            - removed  b

            + added    c

            breaking (1):
              b: removed while c was added with the same type (int) and no owner: a rename without \
            `renamed_from: [b]` drops its stored overrides

            note: removed or renamed keys still read by code were not checked: `switchboard refs` lists the code \
            that reads each key

            """)
    }
}
