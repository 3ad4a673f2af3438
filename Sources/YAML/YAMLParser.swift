import CLibYAML

/// Parses YAML with libyaml's event API into a ``Node`` tree where every node knows its file, line and column.
///
/// Beyond YAML's own syntax it enforces what a configuration file should be: one document, UTF-8,
/// unique keys in each mapping, only the core schema's tags, and bounded alias expansion and nesting
/// so a hostile file ("billion laughs") is an error instead of an out-of-memory.
///
/// ```swift
/// let document = YAMLParser.parse(Array(data), file: "flags/checkout.yaml")
/// for problem in document.problems { print(problem) }
/// ```
public enum YAMLParser {
    /// Bounds that keep a hostile file from exhausting memory or the stack.
    public struct Limits: Sendable {
        /// The most nodes a document may hold once aliases are expanded.
        public var maxNodes: Int
        /// The deepest nesting of collections.
        public var maxDepth: Int

        /// Creates limits.
        public init(maxNodes: Int = 1_000_000, maxDepth: Int = 64) {
            self.maxNodes = maxNodes
            self.maxDepth = maxDepth
        }
    }

    /// Parses a file's bytes. Never throws: every problem is in the returned document.
    public static func parse(_ bytes: [UInt8], file: String, limits: Limits = Limits()) -> YAMLDocument {
        if let problem = checkEncoding(bytes, file: file) {
            return YAMLDocument(root: nil, problems: [problem], isEmpty: false)
        }
        return bytes.withUnsafeBufferPointer { buffer in
            var builder = TreeBuilder(file: file, limits: limits)
            return builder.run(buffer)
        }
    }

    /// Runs libyaml's event scan over the bytes and builds nothing: the baseline the load benchmark
    /// compares against. Returns the number of events, or -1 on a syntax error.
    public static func scanEvents(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else { return -1 }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var event = yaml_event_t()
            var count = 0
            while true {
                guard yaml_parser_parse(&parser, &event) == 1 else { return -1 }
                let done = event.type == YAML_STREAM_END_EVENT
                yaml_event_delete(&event)
                count += 1
                if done { return count }
            }
        }
    }

    /// Rejects UTF-16/32 and invalid UTF-8 with the line and column of the first bad byte.
    static func checkEncoding(_ bytes: [UInt8], file: String) -> YAMLProblem? {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE])
            || bytes.starts(with: [0, 0, 0xFE, 0xFF])
        {
            return YAMLProblem(
                location: SourceLocation(file: file, line: 1, column: 1),
                message: "the file is encoded in UTF-16 or UTF-32; only UTF-8 is accepted",
                hint: "convert it, for example with `iconv -f UTF-16 -t UTF-8`"
            )
        }
        // The standard library's validation is fast and copies nothing; the scan below only runs to locate a problem.
        if (try? UTF8Span(validating: bytes.span)) != nil { return nil }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var line = 1
        var column = 1
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput:
                return nil
            case .error:
                return YAMLProblem(
                    location: SourceLocation(file: file, line: line, column: column),
                    message: "invalid UTF-8: the file must be UTF-8 text",
                    hint: "the bytes here are not UTF-8; re-save the file as UTF-8"
                )
            }
        }
    }
}

/// Turns libyaml events into nodes. One per parse.
struct TreeBuilder {
    /// A collection being built. Its finished children wait on the builder's shared ``children`` stack from
    /// ``start`` on (a mapping's as key, value, key, value, ...), so each collection's array is allocated once, at
    /// its exact size, when it ends.
    struct Frame {
        var location: SourceLocation
        var tag: String?
        var anchor: String?
        var isMapping: Bool
        var start: Int
        var pendingKey: Node?
        /// Scalar keys seen so far by text (with their position in ``children``), once a mapping is large enough
        /// that scanning its pairs would cost more.
        var keyIndex: [String: Int]?
        /// The number of nodes below this one, aliases expanded.
        var size = 1
        /// The top-level key whose entries are built apart (see ``YAMLParser/parse(_:file:limits:splitting:)``), if any.
        var detachedUnder: String?
        /// The keys of a detached mapping seen so far, for duplicates.
        var detachedKeys: [DetachedKey: SourceLocation] = [:]
    }

    /// A detached mapping's key: keys are the same when their text and typed value are.
    struct DetachedKey: Hashable {
        var text: String
        var value: Scalar.Value
    }

    let file: String
    let limits: YAMLParser.Limits
    var stack: [Frame] = []
    /// Optional, so a finished collection moves its children out (``Optional/take()``) instead of copying them.
    var children: [Node?] = []
    private var anchors: [String: (node: Node, size: Int)] = [:]
    var problems: [YAMLProblem] = []
    var root: Node?
    private var documents = 0
    var totalNodes = 0
    /// Whether an alias was expanded: past the node budget, the file is then a likely alias bomb, else only large.
    private var expandedAlias = false

    init(file: String, limits: YAMLParser.Limits) {
        self.file = file
        self.limits = limits
    }

    /// Empties the builder for another document, keeping its storage.
    mutating func reset() {
        stack.removeAll(keepingCapacity: true)
        children.removeAll(keepingCapacity: true)
        anchors.removeAll(keepingCapacity: true)
        problems.removeAll(keepingCapacity: true)
        root = nil
        documents = 0
        totalNodes = 0
    }

    func location(_ mark: yaml_mark_t) -> SourceLocation {
        SourceLocation(file: file, line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    mutating func run(_ buffer: UnsafeBufferPointer<UInt8>) -> YAMLDocument {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            let problem = YAMLProblem(location: .init(file: file, line: 1, column: 1), message: "out of memory")
            return YAMLDocument(root: nil, problems: [problem], isEmpty: false)
        }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(&parser, &event) == 1 else {
                problems.append(syntaxProblem(parser, buffer))
                return finish(failed: true)
            }
            defer { yaml_event_delete(&event) }
            if event.type == YAML_STREAM_END_EVENT { break }
            if let problem = handle(&event) {
                problems.append(problem)
                return finish(failed: true)
            }
        }
        return finish(failed: false)
    }

    /// The pairs of the root mapping finished so far.
    var earlierRootPairs: [Node.Pair] {
        var pairs: [Node.Pair] = []
        guard let frame = stack.first, frame.isMapping else { return pairs }
        for index in stride(from: frame.start, to: children.count - 1, by: 2) {
            if let key = children[index], let value = children[index + 1] { pairs.append(Node.Pair(key: key, value: value)) }
        }
        return pairs
    }

    mutating func finish(failed: Bool) -> YAMLDocument {
        problems.sort { $0.location < $1.location }
        return YAMLDocument(root: failed ? nil : root, problems: problems, isEmpty: !failed && documents == 0)
    }

    static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }

    /// Handles one event; returns a fatal problem, if any.
    mutating func handle(_ event: inout yaml_event_t) -> YAMLProblem? {
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                return YAMLProblem(
                    location: location(event.start_mark),
                    message: "a second YAML document; a definitions file holds exactly one",
                    hint: "remove the `---` line, or split the documents into separate files"
                )
            }
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            let bytes = UnsafeBufferPointer(start: data.value, count: data.length)
            let text = String(decoding: bytes, as: UTF8.self)
            let style = Scalar.Style(data.style)
            let start = location(event.start_mark)
            var tag: String?
            let value: Scalar.Value
            if let written = Self.string(data.tag) {
                switch resolveScalarTag(written, text: text, at: start) {
                case .success(let resolved):
                    tag = written
                    value = resolved
                case .failure(let problem):
                    return problem
                }
            } else if style == .plain {
                value = Scalar.Value.resolve(plainBytes: bytes)
            } else {
                value = .string
            }
            let node = Node(.scalar(Scalar(text: text, style: style, value: value)), location: start, tag: tag)
            return add(node, size: 1, anchor: Self.string(data.anchor))
        case YAML_ALIAS_EVENT:
            let name = Self.string(event.data.alias.anchor) ?? ""
            guard let (node, size) = anchors[name] else {
                return YAMLProblem(
                    location: location(event.start_mark),
                    message: "alias *\(name) refers to no anchor defined before it",
                    hint: "define `&\(name)` on a node above this line; an alias cannot refer to its own parent"
                )
            }
            expandedAlias = true
            return add(node, size: size, anchor: nil)
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
            let isMapping = event.type == YAML_MAPPING_START_EVENT
            let start = location(event.start_mark)
            let rawTag = isMapping ? event.data.mapping_start.tag : event.data.sequence_start.tag
            let anchor = Self.string(isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor)
            let tag = Self.string(rawTag)
            if let tag {
                let expected = isMapping ? "tag:yaml.org,2002:map" : "tag:yaml.org,2002:seq"
                if tag != expected && tag != "!" {
                    return unknownTag(tag, at: start)
                }
            }
            if stack.count >= limits.maxDepth {
                return YAMLProblem(
                    location: start,
                    message: "nesting deeper than \(limits.maxDepth) levels",
                    hint: "flatten the structure; definitions never need this depth"
                )
            }
            stack.append(Frame(location: start, tag: tag, anchor: anchor, isMapping: isMapping, start: children.count))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            let frame = stack.removeLast()
            let content: Node.Content
            if frame.isMapping {
                var pairs: [Node.Pair] = []
                pairs.reserveCapacity((children.count - frame.start) / 2)
                var index = frame.start
                while index < children.count {
                    pairs.append(Node.Pair(key: children[index].take()!, value: children[index + 1].take()!))
                    index += 2
                }
                content = .mapping(pairs)
            } else {
                var items: [Node] = []
                items.reserveCapacity(children.count - frame.start)
                for index in frame.start..<children.count { items.append(children[index].take()!) }
                content = .sequence(items)
            }
            children.removeSubrange(frame.start...)
            return add(Node(content, location: frame.location, tag: frame.tag), size: frame.size, anchor: frame.anchor)
        default:
            break
        }
        return nil
    }

    /// Adds a finished node to its parent (or as the root), counting it against the node budget.
    mutating func add(_ node: consuming Node, size: Int, anchor: String?) -> YAMLProblem? {
        totalNodes += size
        if totalNodes > limits.maxNodes {
            guard expandedAlias else {
                return YAMLProblem(
                    location: node.location,
                    message: "the file is past its budget of \(limits.maxNodes) nodes (each counted at every level "
                        + "it is nested in)",
                    hint: "split it into several files: each is read with a budget of its own")
            }
            return YAMLProblem(
                location: node.location,
                message: "aliases expand to more than \(limits.maxNodes) nodes (an alias bomb?)",
                hint: "a configuration file should not need this many nodes; reduce the nesting of aliases"
            )
        }
        if let anchor { anchors[anchor] = (node, size) }
        guard !stack.isEmpty else {
            root = node
            return nil
        }
        let top = stack.count - 1
        stack[top].size += size
        if !stack[top].isMapping {
            children.append(node)
        } else if let key = stack[top].pendingKey.take() {
            let isTopLevelValue = top == 1
            if let first = Self.firstOccurrence(of: key, in: &stack[top], children: children,
                                                isTopLevelValue: isTopLevelValue)
            {
                let name = key.scalar?.text ?? "?"
                problems.append(YAMLProblem(
                    location: key.location,
                    message: "duplicate key '\(name)'; first defined at \(first.line):\(first.column)",
                    hint: "remove one of the two; YAML keeps neither reliably",
                    isFatal: false
                ))
            } else {
                children.append(key)
                children.append(node)
            }
        } else {
            stack[top].pendingKey = node
        }
        return nil
    }


    /// Where a key already appears in the mapping being built, if it does; records it otherwise.
    /// `isTopLevelValue`: the mapping is directly inside the document's root collection.
    private static func firstOccurrence(
        of key: Node, in frame: inout Frame, children: [Node?], isTopLevelValue: Bool
    ) -> SourceLocation? {
        guard let scalar = key.scalar else { return nil }
        // Small mappings (a definition's fields) are scanned; large ones (a file's keys) get an index.
        let pairCount = (children.count - frame.start) / 2
        if frame.keyIndex == nil && pairCount < 16 {
            // String equality (canonical equivalence), as the index below and split mappings compare keys.
            var index = frame.start
            while index < children.count {
                if case .scalar(let other)? = children[index]?.content, other.text == scalar.text,
                   other.value == scalar.value
                {
                    return children[index]?.location
                }
                index += 2
            }
            return nil
        }
        if frame.keyIndex == nil {
            var index: [String: Int] = [:]
            // A large mapping just below the document's is usually a section of hundreds of entries: room for 512
            // at once saves growing the table (and hashing every key again) three or four times.
            index.reserveCapacity(isTopLevelValue ? 512 : pairCount * 4)
            for position in stride(from: frame.start, to: children.count, by: 2) {
                if let other = children[position]?.scalar, index[other.text] == nil { index[other.text] = position }
            }
            frame.keyIndex = index
        }
        // Keys are the same when their text and typed value are (the style does not matter): `1` and `"1"` differ.
        // Keys with the same text but another value are rare; they are found by scanning.
        let position = children.count
        guard let first = frame.keyIndex?[scalar.text] else {
            frame.keyIndex?[scalar.text] = position
            return nil
        }
        if let other = children[first]?.scalar, other.value == scalar.value { return children[first]?.location }
        for index in stride(from: frame.start, to: children.count, by: 2) {
            if let other = children[index]?.scalar, other.text == scalar.text, other.value == scalar.value {
                return children[index]?.location
            }
        }
        return nil
    }

    private func resolveScalarTag(_ tag: String, text: String, at location: SourceLocation)
        -> Result<Scalar.Value, YAMLProblem>
    {
        let core = Scalar.Value.resolve(plain: text)
        switch tag {
        case "!", "tag:yaml.org,2002:str":
            return .success(.string)
        case "tag:yaml.org,2002:null":
            if case .null = core { return .success(.null) }
        case "tag:yaml.org,2002:bool":
            if case .bool = core { return .success(core) }
        case "tag:yaml.org,2002:int":
            if case .int = core { return .success(core) }
        case "tag:yaml.org,2002:float":
            if case .double = core { return .success(core) }
            if case .int(let value) = core { return .success(.double(Double(value))) }
        default:
            return .failure(unknownTag(tag, at: location))
        }
        return .failure(YAMLProblem(
            location: location,
            message: "'\(text)' is not a valid value for tag \(Self.shortTag(tag))",
            hint: "remove the tag or fix the value"
        ))
    }

    private static func shortTag(_ tag: String) -> String {
        tag.hasPrefix("tag:yaml.org,2002:") ? "!!" + tag.dropFirst("tag:yaml.org,2002:".count) : tag
    }

    private func unknownTag(_ tag: String, at location: SourceLocation) -> YAMLProblem {
        YAMLProblem(
            location: location,
            message: "unknown tag \(Self.shortTag(tag))",
            hint: "only the core schema's tags are accepted: !!str, !!int, !!float, !!bool, !!null, !!map, !!seq"
        )
    }

    /// Renders libyaml's error as `problem (context)` at the problem's mark, with a hint for the common ones.
    private func syntaxProblem(_ parser: yaml_parser_t, _ buffer: UnsafeBufferPointer<UInt8>) -> YAMLProblem {
        let problem = parser.problem.map { String(cString: $0) } ?? "syntax error"
        let context = parser.context.map { String(cString: $0) }
        var where_: SourceLocation
        if parser.error == YAML_READER_ERROR {
            where_ = Self.location(ofOffset: parser.problem_offset, in: buffer, file: file)
        } else {
            where_ = location(parser.problem_mark)
        }
        var message = problem
        if let context { message += " (\(context))" }
        var hint: String?
        let contextLocation = location(parser.context_mark)
        if problem.contains("found character that cannot start any token"),
           Self.byte(atCharacter: parser.problem_mark.index, in: buffer) == 0x09
        {
            hint = "YAML indentation must use spaces; replace the tab with spaces"
        } else if problem.contains("tab") {
            hint = "YAML indentation must use spaces; replace the tab with spaces"
        } else if let context, context.contains("quoted scalar") {
            hint = "close the quote opened at \(contextLocation.line):\(contextLocation.column)"
        } else if let context, context.contains("flow sequence") || context.contains("flow mapping") {
            let (open, close) = context.contains("flow sequence") ? ("[", "]") : ("{", "}")
            hint = "close the '\(open)' opened at \(contextLocation.line):\(contextLocation.column) with '\(close)', "
                + "or separate its items with ','"
        } else if problem.contains("mapping values are not allowed") {
            hint = "check the indentation of this line, or quote a value that contains ': '"
        } else if problem.contains("did not find expected key") || problem.contains("did not find expected '-'") {
            hint = "check the indentation: this line does not line up with the keys above it"
        } else if let context, context.contains("simple key") {
            hint = "a key must be followed by ':' on the same line"
        } else if problem.contains("did not find expected node content") {
            hint = "a value is missing here, or a flow collection ([...] or {...}) is not closed"
        }
        return YAMLProblem(location: where_, message: message, hint: hint)
    }

    /// The first byte of the character at a character index (libyaml's marks count characters, not bytes).
    private static func byte(atCharacter index: Int, in buffer: UnsafeBufferPointer<UInt8>) -> UInt8? {
        var characters = 0
        for offset in 0..<buffer.count where buffer[offset] & 0xC0 != 0x80 {
            if characters == index { return buffer[offset] }
            characters += 1
        }
        return nil
    }

    private static func location(ofOffset offset: Int, in buffer: UnsafeBufferPointer<UInt8>, file: String)
        -> SourceLocation
    {
        var line = 1
        var column = 1
        for i in 0..<min(offset, buffer.count) {
            if buffer[i] == 0x0A {
                line += 1
                column = 1
            } else if buffer[i] & 0xC0 != 0x80 {
                column += 1
            }
        }
        return SourceLocation(file: file, line: line, column: column)
    }
}

