import Locking
import Testing

@testable import YAML

/// `YAMLParser.Splitting.read` is offered each entry of a split mapping as its events (`SplitEntry`) before any
/// node is built. The events must describe exactly the node the entry would be built as, and an entry it takes
/// must not reach `receive`.
struct SplitEntryTests {
    /// The node the events from `index` on describe, rendered as `SplitParseTests.render` renders nodes.
    static func render(_ entry: SplitEntry, at index: Int) -> String {
        let location = entry.location(at: index)
        let place = "@\(location.line):\(location.column)"
        switch entry.kind(at: index) {
        case .scalar:
            let scalar = entry.scalar(at: index)
            #expect(scalar.text == entry.text(at: index))
            return "\(scalar.text.debugDescription)/\(scalar.style)/\(scalar.value)\(place)"
        case .sequenceStart:
            var items: [String] = []
            var item = index + 1
            while entry.kind(at: item) != .sequenceEnd {
                items.append(render(entry, at: item))
                item = entry.end(ofNodeAt: item)
            }
            #expect(entry.end(ofNodeAt: index) == item + 1)
            return "[\(items.joined(separator: ", "))]\(place)"
        case .mappingStart:
            var pairs: [String] = []
            var item = index + 1
            while entry.kind(at: item) != .mappingEnd {
                let value = entry.end(ofNodeAt: item)
                pairs.append("\(render(entry, at: item)): \(render(entry, at: value))")
                item = entry.end(ofNodeAt: value)
            }
            #expect(entry.end(ofNodeAt: index) == item + 1)
            return "{\(pairs.joined(separator: ", "))}\(place)"
        case .sequenceEnd, .mappingEnd:
            Issue.record("a node cannot start with a collection's end")
            return ""
        }
    }

    /// Every entry of the large test document, rendered from its events and from its nodes, by position.
    final class Seen: Sendable {
        let fromEvents = Locked<[Int: String]>([:])
        let fromNodes = Locked<[Int: String]>([:])
    }

    @Test("an entry's events describe the node it is built as", arguments: [1, 2])
    func eventsMatchNodes(threads: Int) {
        let seen = Seen()
        let splitting = YAMLParser.Splitting(
            shouldSplit: { key, _ in key == "flags" || key == "preferences" },
            read: { _, position, _, entry in
                // Events without a tag only: a tagged scalar's value comes from its tag, which the tree resolves.
                guard !(0..<entry.count).contains(where: { entry.kind(at: $0) != .sequenceEnd
                    && entry.kind(at: $0) != .mappingEnd && entry.hasTag(at: $0) })
                else { return false }
                let key = Self.render(entry, at: 0)
                let value = Self.render(entry, at: entry.end(ofNodeAt: 0))
                #expect(entry.end(ofNodeAt: entry.end(ofNodeAt: 0)) == entry.count, "one key and one value")
                seen.fromEvents.withLock { $0[position] = "\(key): \(value)" }
                // Every other entry is left to the nodes, to compare the two.
                return position % 2 == 0
            },
            receive: { _, position, _, pair in
                seen.fromNodes.withLock {
                    $0[position] = "\(SplitParseTests.render(pair.key)): \(SplitParseTests.render(pair.value))"
                }
            })
        let text = SplitParseTests.bigDocument(entries: 600)
        #expect(YAMLParser.parse(Array(text.utf8), file: "big.yaml", splitting: splitting, threads: threads) != nil)
        let fromEvents = seen.fromEvents.withLock { $0 }
        let fromNodes = seen.fromNodes.withLock { $0 }
        #expect(fromEvents.count > 300)
        for (position, rendered) in fromNodes {
            // A taken entry never reaches `receive`; one left is built, and its events said the same.
            #expect(position % 2 == 1 || fromEvents[position] == nil, "entry \(position) was taken and built")
            if let events = fromEvents[position] { #expect(events == rendered, "entry \(position)") }
        }
        #expect(fromEvents.keys.contains { $0 % 2 == 1 && fromNodes[$0] != nil }, "some entries compared")
    }
}
