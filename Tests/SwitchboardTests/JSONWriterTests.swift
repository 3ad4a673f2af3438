import Foundation
import Switchboard
import Testing

/// The one JSON writer: compact, keys sorted, doubles keep their point, the escapes JSON requires, and text that
/// Foundation's own JSON reader reads back to the same value.
struct JSONWriterTests {
    static let cases: [(Value, String)] = [
        (.null, "null"), (true, "true"), (false, "false"), (0, "0"), (-42, "-42"),
        (.double(1), "1.0"), (.double(0.1), "0.1"), (.double(1e100), "1e+100"), (.double(.nan), "null"),
        ("", "\"\""), ("plain", "\"plain\""),
        ("quote \" backslash \\ newline \n return \r tab \t bell \u{7} unit \u{1f}",
         #""quote \" backslash \\ newline \n return \r tab \t bell \u0007 unit \u001f""#),
        ("café ☕️ 𝄞", "\"café ☕️ 𝄞\""),
        ([1, "a", [true]], #"[1,"a",[true]]"#),
        (["b": 1, "a": ["z": .null, "y": 2.5]], #"{"a":{"y":2.5,"z":null},"b":1}"#),
        ([:], "{}"), ([], "[]"),
    ]

    @Test(arguments: cases)
    func writesCompactSortedJSON(_ value: Value, _ expected: String) throws {
        #expect(value.json == expected)
        var text = "prefix:"
        value.writeJSON(to: &text)
        #expect(text == "prefix:" + expected)
        if value.doubleValue?.isNaN != true {
            #expect(try Value(json: expected) == value)
        }
    }

    @Test func aStringLiteralIsEscapedAsInsideAValue() {
        var text = ""
        Value.writeJSONString("a\"b\n", to: &text)
        #expect(text == #""a\"b\n""#)
    }
}
