import Locking
import Testing

@testable import YAML
import SwitchboardTestSupport

/// `YAMLParser.parse(_:file:limits:splitting:)` builds a large mapping's entries on two threads. Whatever the
/// document, it must give exactly what the one-piece parse gives (the same nodes, locations and problems, the
/// entries in order), or `nil` to say the document must be read in one piece.
struct SplitParseTests {
    /// A canonical rendering of a node with every location and scalar detail, to compare two trees.
    static func render(_ node: Node) -> String {
        let place = "@\(node.location.line):\(node.location.column)\(node.tag.map { "!\($0)" } ?? "")"
        switch node.content {
        case .scalar(let scalar):
            return "\(scalar.text.debugDescription)/\(scalar.style)/\(scalar.value)\(place)"
        case .sequence(let items):
            return "[\(items.map(render).joined(separator: ", "))]\(place)"
        case .mapping(let pairs):
            return "{\(pairs.map { "\(render($0.key)): \(render($0.value))" }.joined(separator: ", "))}\(place)"
        }
    }

    /// The entries of the split mappings, in order, put back into the document, and the workers that received
    /// them.
    final class Collected: Sendable {
        let entries = Locked<[(position: Int, key: String, entry: Node.Pair)]>([])
        let workers = Locked<Set<Int>>([])
    }

    /// Parses in two pieces and reassembles the tree; `nil` when the split parse declines. With `bothWorkers`,
    /// the calling thread's worker holds back its first entry until the second worker has received one (or a
    /// generous deadline passes), so the second worker surely takes part however busy the machine is;
    /// `workers` then says who did.
    static func splitParse(
        _ text: String, splitting keys: Set<String> = ["flags", "preferences"], bothWorkers: Bool = false,
        threads: Int = 2, workers: ((Set<Int>) -> Void)? = nil
    ) -> YAMLDocument? {
        let collected = Collected()
        let splitting = YAMLParser.Splitting(
            shouldSplit: { key, _ in keys.contains(key) },
            receive: { worker, position, key, entry in
                if bothWorkers, worker == 0 {
                    try? waitUntilBlocking("the second worker to take part") {
                        collected.workers.withLock { $0.contains(1) }
                    }
                }
                collected.workers.withLock { _ = $0.insert(worker) }
                collected.entries.withLock { $0.append((position, key, entry)) }
            })
        guard var document = YAMLParser.parse(Array(text.utf8), file: "big.yaml", splitting: splitting,
                                              threads: threads)
        else {
            return nil
        }
        let entries = collected.entries.withLock { $0 }.sorted { $0.position < $1.position }
        // Positions count every entry, duplicates (which are not received) included: distinct, in source order.
        #expect(Set(entries.map(\.position)).count == entries.count)
        if var root = document.root, case .mapping(var pairs) = root.content {
            for index in pairs.indices {
                guard let key = pairs[index].key.scalar?.text, keys.contains(key), case .mapping(let own) =
                    pairs[index].value.content, own.isEmpty
                else { continue }
                pairs[index].value.content = .mapping(entries.filter { $0.key == key }.map(\.entry))
            }
            root.content = .mapping(pairs)
            document.root = root
        }
        workers?(collected.workers.withLock { $0 })
        return document
    }

    static func expectSame(
        _ text: String, bothWorkers: Bool = false, threads: Int = 2,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let whole = YAMLParser.parse(Array(text.utf8), file: "big.yaml")
        let took = Locked<Set<Int>>([])
        let parsed = splitParse(text, bothWorkers: bothWorkers, threads: threads) { workers in
            took.withLock { $0 = workers }
        }
        let split = try #require(parsed, sourceLocation: sourceLocation)
        if bothWorkers {
            #expect(took.withLock { $0 } == [0, 1], "both workers received entries", sourceLocation: sourceLocation)
        }
        if threads == 1 {
            #expect(took.withLock { $0 }.isSubset(of: [0]), "one worker only", sourceLocation: sourceLocation)
        }
        #expect(split.problems.map(\.description) == whole.problems.map(\.description), sourceLocation: sourceLocation)
        #expect(split.root.map(render) == whole.root.map(render), sourceLocation: sourceLocation)
        #expect(split.isEmpty == whole.isEmpty, sourceLocation: sourceLocation)
    }

    /// Many entries of every shape: nested collections, flow and block styles, tags, quoted and empty values,
    /// non-ASCII text, comments, and duplicate keys (including `1` next to `"1"`, which are different keys).
    static func bigDocument(entries: Int = 3000) -> String {
        var text = "# a large file\nnamespace: big\nflags:\n"
        for i in 0..<entries {
            switch i % 6 {
            case 0:
                text += "  flag_\(i):\n    type: bool\n    default: \(i % 2 == 0)\n    tags: [a, \"b\", 'c']\n"
            case 1:
                text += "  flag_\(i): { type: int, default: \(i), min: -3, max: 0x1F }\n"
            case 2:
                text += "  flag_\(i):\n    description: |\n      Line one of \(i)\n      line two — ünïcode\n    default: !!str 12\n"
            case 3:
                text += "  flag_\(i):\n    variants:\n      - { name: a, value: [1, 2.5, ~] }\n      - name: b\n        value: {}\n"
            case 4:
                text += "  \"quoted key \(i)\": \"\"  # a comment\n  flag_\(i - 3):\n    duplicate: true\n"
            default:
                text += "  \(i):\n    nested:\n      deeper:\n        - - x\n          - y\n  \"\(i)\": second\n"
            }
        }
        text += "preferences:\n  p1: { type: string, default: x }\n  p2:\n"
        text += "segments:\n  beta: [{ attribute: plan, equals: pro }]\n"
        return text
    }

    @Test("a large document gives the same tree and problems in two pieces as in one")
    func sameAsWhole() throws {
        try Self.expectSame(Self.bigDocument())
        // The calling thread's worker waits for the second one here, so both surely build entries.
        try Self.expectSame(Self.bigDocument(entries: 20_000), bothWorkers: true)
        // On one thread, the calling one, once the scan is done.
        try Self.expectSame(Self.bigDocument(), threads: 1)
    }

    @Test("split mappings anywhere among the top-level keys, or none at all")
    func placements() throws {
        try Self.expectSame("flags:\n  a: 1\nnamespace: x\npreferences:\n  b: 2\n")
        // A key written three times: the second and the third each name the first.
        try Self.expectSame("namespace: x\nflags:\n  a: 1\n  a: 2\n  a: 3\n")
        try Self.expectSame("namespace: x\nother: { flags: 1 }\n")
        try Self.expectSame("namespace: x\nflags: {}\npreferences: []\n")
        try Self.expectSame("flags:\n  a: 1\n  a: 2\n  b:\n")
        try Self.expectSame("flags: !!map\n  a: 1\n")  // a tagged mapping stays whole
        // A top-level key written twice: the second mapping is dropped, not split.
        try Self.expectSame("namespace: a\nflags:\n  x: 1\nflags:\n  y: 2\n")
        try Self.expectSame("flags:\nflags:\n  y: 2\n")
        try Self.expectSame("flags: !!map\n  x: 1\nflags:\n  y: 2\n")
        // Canonically equal keys are the same key, in a small mapping, a large one and a split one alike.
        try Self.expectSame("flags:\n  \"caf\u{e9}\": 1\n  \"cafe\u{301}\": 2\n")
        try Self.expectSame("other: {\"caf\u{e9}\": 1, \"cafe\u{301}\": 2}\n")
        try Self.expectSame("")
        try Self.expectSame("# only a comment\n")
    }

    @Test("documents that must be read in one piece decline the split", arguments: [
        "flags:\n  a: &x 1\n  b: *x\n",  // an anchor and an alias
        "flags:\n  ? [complex, key]\n  : 1\n",  // a non-scalar key
        "flags:\n  a: !!int x\n",  // a tag that fails: an error that stops parsing
        "flags:\n  a: [1, 2\n",  // a syntax error
        "flags:\n  a: 1\n---\nflags: {}\n",  // a second document
    ])
    func declines(_ text: String) {
        #expect(Self.splitParse(text) == nil)
        // The one-piece parse is what reports these.
        _ = YAMLParser.parse(Array(text.utf8), file: "big.yaml")
    }

    @Test("the node budget and depth limit hold as in the one-piece parse")
    func limits() {
        var deep = "flags:\n  a: "
        for _ in 0..<70 { deep += "[" }
        for _ in 0..<70 { deep += "]" }
        #expect(Self.splitParse(deep + "\n") == nil)
        #expect(!YAMLParser.parse(Array((deep + "\n").utf8), file: "big.yaml").problems.isEmpty)
        let many = "flags:\n" + (0..<200).map { "  k\($0): [1, 2, 3, 4]\n" }.joined()
        let limits = YAMLParser.Limits(maxNodes: 500)
        let splitting = YAMLParser.Splitting(shouldSplit: { _, _ in true }, receive: { _, _, _, _ in })
        #expect(YAMLParser.parse(Array(many.utf8), file: "big.yaml", limits: limits, splitting: splitting) == nil)
        #expect(YAMLParser.parse(Array(many.utf8), file: "big.yaml", limits: limits).root == nil)
    }
}
