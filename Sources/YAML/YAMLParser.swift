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
        // The standard library's validation is fast; the scan below only runs to locate a problem.
        if String(validating: bytes, as: UTF8.self) != nil { return nil }
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
private struct TreeBuilder {
    /// A collection being built.
    private struct Frame {
        var location: SourceLocation
        var tag: String?
        var anchor: String?
        var isMapping: Bool
        var items: [Node] = []
        var pairs: [Node.Pair] = []
        var pendingKey: Node?
        /// Scalar keys seen so far, once a mapping is large enough that scanning its pairs would cost more.
        var keyIndex: [Scalar: SourceLocation]?
        /// The number of nodes below this one, aliases expanded.
        var size = 1
    }

    let file: String
    let limits: YAMLParser.Limits
    private var stack: [Frame] = []
    private var anchors: [String: (node: Node, size: Int)] = [:]
    private var problems: [YAMLProblem] = []
    private var root: Node?
    private var documents = 0
    private var totalNodes = 0

    init(file: String, limits: YAMLParser.Limits) {
        self.file = file
        self.limits = limits
    }

    private func location(_ mark: yaml_mark_t) -> SourceLocation {
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

    private mutating func finish(failed: Bool) -> YAMLDocument {
        problems.sort { $0.location < $1.location }
        return YAMLDocument(root: failed ? nil : root, problems: problems, isEmpty: !failed && documents == 0)
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }

    /// Handles one event; returns a fatal problem, if any.
    private mutating func handle(_ event: inout yaml_event_t) -> YAMLProblem? {
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
            let style: Scalar.Style = switch data.style {
            case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
            case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
            case YAML_LITERAL_SCALAR_STYLE: .literal
            case YAML_FOLDED_SCALAR_STYLE: .folded
            default: .plain
            }
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
            stack.append(Frame(location: start, tag: tag, anchor: anchor, isMapping: isMapping))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            let frame = stack.removeLast()
            let content: Node.Content = frame.isMapping ? .mapping(frame.pairs) : .sequence(frame.items)
            return add(Node(content, location: frame.location, tag: frame.tag), size: frame.size, anchor: frame.anchor)
        default:
            break
        }
        return nil
    }

    /// Adds a finished node to its parent (or as the root), counting it against the node budget.
    private mutating func add(_ node: Node, size: Int, anchor: String?) -> YAMLProblem? {
        totalNodes += size
        if totalNodes > limits.maxNodes {
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
        stack[stack.count - 1].size += size
        if !stack[stack.count - 1].isMapping {
            stack[stack.count - 1].items.append(node)
        } else if let key = stack[stack.count - 1].pendingKey {
            stack[stack.count - 1].pendingKey = nil
            if let first = Self.firstOccurrence(of: key, in: &stack[stack.count - 1]) {
                let name = key.scalar?.text ?? "?"
                problems.append(YAMLProblem(
                    location: key.location,
                    message: "duplicate key '\(name)'; first defined at \(first.line):\(first.column)",
                    hint: "remove one of the two; YAML keeps neither reliably",
                    isFatal: false
                ))
            } else {
                stack[stack.count - 1].pairs.append(Node.Pair(key: key, value: node))
            }
        } else {
            stack[stack.count - 1].pendingKey = node
        }
        return nil
    }

    /// Where a key already appears in the mapping being built, if it does; records it otherwise.
    private static func firstOccurrence(of key: Node, in frame: inout Frame) -> SourceLocation? {
        guard let scalar = key.scalar else { return nil }
        // Small mappings (a definition's fields) are scanned; large ones (a file's keys) get an index.
        if frame.keyIndex == nil && frame.pairs.count < 16 {
            for pair in frame.pairs {
                if let other = pair.key.scalar, other.text == scalar.text, other.value == scalar.value {
                    return pair.key.location
                }
            }
            return nil
        }
        if frame.keyIndex == nil {
            var index: [Scalar: SourceLocation] = [:]
            for pair in frame.pairs {
                if let other = pair.key.scalar { index[Self.identity(other)] = pair.key.location }
            }
            frame.keyIndex = index
        }
        let identity = Self.identity(scalar)
        if let first = frame.keyIndex?[identity] { return first }
        frame.keyIndex?[identity] = key.location
        return nil
    }

    /// Two keys are the same when their text and typed value are; the style does not matter.
    private static func identity(_ scalar: Scalar) -> Scalar {
        Scalar(text: scalar.text, style: .plain, value: scalar.value)
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
