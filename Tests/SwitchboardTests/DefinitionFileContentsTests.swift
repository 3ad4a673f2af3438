import Foundation
import Testing

@testable import Switchboard

/// A definitions file is read straight into an array, sized by what it measured when the folder was listed; a file
/// that has grown or shrunk since is still read whole, and one that cannot be read gives nothing.
struct DefinitionFileContentsTests {
    static func file(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "switchboard-contents-\(UUID().uuidString).yaml"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    @Test("the size it was listed with, a larger one and a smaller one give the same bytes", arguments: [0, 7, 10_000])
    func wholeWhateverTheExpectedSize(delta: Int) throws {
        let text = String(repeating: "namespace: shop\nflags: {}\n", count: 300)
        let path = try Self.file(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let size = text.utf8.count
        #expect(DefinitionLoader.contents(ofFile: path, expectedSize: size + delta) == Array(text.utf8))
        // Grown since it was listed: the rest follows the expected size.
        #expect(DefinitionLoader.contents(ofFile: path, expectedSize: max(0, size - 1 - delta)) == Array(text.utf8))
    }

    @Test("a file grown by several reads' worth since it was listed is read to its end")
    func grownBySeveralChunks() throws {
        let text = String(repeating: "namespace: shop\nflags: {}\n", count: 8_000)
        let path = try Self.file(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(text.utf8.count > 3 * FileBytes.chunkSize + 10_000)
        #expect(DefinitionLoader.contents(ofFile: path, expectedSize: 10_000) == Array(text.utf8))
    }

    @Test("an empty file gives no bytes; a missing file and a folder give nothing")
    func emptyMissingAndFolder() throws {
        let path = try Self.file("")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(DefinitionLoader.contents(ofFile: path, expectedSize: 0) == [])
        #expect(DefinitionLoader.contents(ofFile: path + ".missing", expectedSize: 10) == nil)
        #expect(DefinitionLoader.contents(ofFile: NSTemporaryDirectory(), expectedSize: 4096) == nil)
    }
}
