import NIOCore
import Switchboard
@testable import SwitchboardServer
import Testing

/// The writer gives the library's own JSON text for every value, escapes included.
@Suite struct JSONWriterTests {
    static let values: [Value] = [
        .null, true, false, 0, -42, .double(1), .double(0.1), .double(1e100), .double(.nan), "", "plain",
        "quote \" backslash \\ newline \n return \r tab \t bell \u{7} unit \u{1f}", "café ☕️ 𝄞",
        [1, "a", [true]], ["b": 1, "a": ["z": .null, "y": 2.5]], [:], [],
    ]

    @Test(arguments: values)
    func writesWhatTheLibraryWrites(_ value: Value) {
        var writer = JSONWriter(capacity: 16)
        writer.value(value)
        #expect(String(buffer: writer.buffer) == value.json)
    }
}
