import Testing
@testable import Switchboard

/// JSON text is UTF-8: a string with invalid UTF-8 (an overlong sequence, a stray continuation byte, a sequence cut
/// short) is refused with its position rather than read as replacement characters, as an unpaired `\ud800` escape
/// already was; a leading byte order mark is skipped, as RFC 8259 allows.
struct JSONTextEncodingTests {
    static func parse(_ bytes: [UInt8]) -> Result<Value, JSONError> {
        do throws(JSONError) { return .success(try Value(jsonBytes: bytes)) } catch { return .failure(error) }
    }

    @Test(arguments: [[0xC0, 0xAF], [0x80], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80]])
    func invalidUTF8InAStringIsRefused(sequence: [UInt8]) {
        for escaped in [false, true] {
            let body = Array(#"{"email": "a"#.utf8) + sequence + Array((escaped ? #"\n"}"# : #"b"}"#).utf8)
            guard case .failure(let error) = Self.parse(body) else {
                Issue.record("accepted \(sequence) (escaped: \(escaped))")
                continue
            }
            #expect(error.description == "1:11: invalid UTF-8 in a string")
        }
    }

    @Test func validUTF8AndKeysAreRead() throws {
        let value = try Value(json: #"{"café": "naïve ☕ 😀", "k": "é\n"}"#)
        #expect(value == .object(["café": "naïve ☕ 😀", "k": "é\n"]))
    }

    /// Which of two values a reader takes for a key given twice differs from reader to reader (RFC 8259 §4), so
    /// neither is taken: the text is refused where the second key starts.
    @Test func aKeyGivenTwiceIsRefused() {
        #expect(Self.parse(Array(#"{"a": 1, "b": {"a": 2}}"#.utf8)) == .success(["a": 1, "b": ["a": 2]]))
        #expect(Self.parse(Array("{\"a\": 1,\n \"a\": 2}".utf8))
            == .failure(JSONError(message: #"the key "a" appears twice in this object"#, line: 2, column: 2)))
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        #expect(try Value(jsonBytes: [0xEF, 0xBB, 0xBF] + Array(#"{"a": 1}"#.utf8)) == .object(["a": 1]))
        // Only at the start: elsewhere it is a character like any other, and outside a string a mistake.
        #expect(throws: JSONError.self) { try Value(jsonBytes: Array(#"{"a": 1}"#.utf8) + [0xEF, 0xBB, 0xBF]) }
    }
}
