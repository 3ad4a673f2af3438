import Synchronization
import YAML

/// Reads a large definitions file on two cores: while libyaml scans on the calling thread, the entries of
/// `flags:` and `preferences:` are built and checked on a second thread (and on this one once the scan is done).
/// The result is the same, diagnostic for diagnostic, as reading the whole document first; a test holds the two
/// paths to that.
///
/// Entries are split off only when their namespace is known when they start (a file that writes `namespace:`
/// first, as every example does); otherwise, and for anything ``YAMLParser/parse(_:file:limits:splitting:)``
/// leaves to a one-piece parse, the file is read in one piece.
enum DefinitionPipeline {
    /// Files at least this large are read on two threads; below it, the handoff costs more than it saves.
    static let concurrencyThreshold = 128 * 1024

    /// The definitions, diagnostics and segments of one file. `concurrent` overrides the size rule, for tests.
    static func parse(_ bytes: [UInt8], file: String, today: Day, concurrent: Bool? = nil) -> DefinitionParser {
        var parser = DefinitionParser(file: file, today: today)
        if concurrent ?? (bytes.count >= concurrencyThreshold), let split = parseSplit(bytes, file: file, today: today) {
            return split
        }
        parser.parse(YAMLParser.parse(bytes, file: file))
        return parser
    }

    private static func parseSplit(_ bytes: [UInt8], file: String, today: Day) -> DefinitionParser? {
        let workers = Workers(file: file, today: today)
        let namespaces = Namespaces()
        var attachedDefinitions = false
        let splitting = YAMLParser.Splitting(
            shouldSplit: { key, earlierPairs in
                guard key == "flags" || key == "preferences" else { return false }
                // Definitions keep file order: once one mapping stays in the document, the later ones do too.
                guard !attachedDefinitions, let namespace = DefinitionParser.namespace(in: earlierPairs) else {
                    attachedDefinitions = true
                    return false
                }
                namespaces.byKey.withLock { $0[key] = .some(namespace) }
                return true
            },
            receive: { worker, position, key, entry in
                let namespace = namespaces.byKey.withLock { $0[key] ?? nil }
                workers.parse(entry, worker: worker, position: position, kind: key == "flags" ? .flag : .preference,
                              namespace: namespace)
            })
        guard let document = YAMLParser.parse(bytes, file: file, splitting: splitting) else { return nil }
        var parser = DefinitionParser(file: file, today: today)
        parser.parse(document, detached: Set(namespaces.byKey.withLock { $0.keys }))
        workers.merge(into: &parser)
        return parser
    }

    /// The namespace of each split top-level key's entries: set on the parsing thread, read on both.
    private final class Namespaces: Sendable {
        let byKey = Mutex<[String: String?]>([:])
    }

    /// One parser per worker thread, and what each entry gave.
    private final class Workers: @unchecked Sendable {
        /// What one entry gave: its definition, moved out of its worker's parser, and the diagnostics and segments
        /// it added there.
        struct Output {
            var position: Int
            var definition: Definition?
            var diagnostics: Range<Int>
            var segments: Range<Int>
        }

        /// Slot `i` is touched only by worker `i` until the parse returns.
        private var parsers: [DefinitionParser]
        private var outputs: [[Output]] = [[], []]

        init(file: String, today: Day) {
            parsers = [DefinitionParser(file: file, today: today), DefinitionParser(file: file, today: today)]
        }

        func parse(_ entry: Node.Pair, worker: Int, position: Int, kind: Definition.Kind, namespace: String?) {
            let before = (parsers[worker].diagnostics.count, parsers[worker].segments.count,
                          parsers[worker].definitions.count)
            parsers[worker].parseDefinition(entry, kind: kind, namespace: namespace)
            // An entry gives one definition, or none when it has errors.
            let definition = parsers[worker].definitions.count > before.2 ? parsers[worker].takeLastDefinition() : nil
            outputs[worker].append(Output(
                position: position, definition: definition,
                diagnostics: before.0..<parsers[worker].diagnostics.count,
                segments: before.1..<parsers[worker].segments.count))
        }

        /// Appends every entry's results to `parser`, in source order, moving the definitions rather than copying.
        func merge(into parser: inout DefinitionParser) {
            var order: [(worker: Int, index: Int, position: Int)] = []
            order.reserveCapacity(outputs[0].count + outputs[1].count)
            for worker in 0..<2 {
                for index in outputs[worker].indices {
                    order.append((worker, index, outputs[worker][index].position))
                }
            }
            order.sort { $0.position < $1.position }
            var definitions: [Definition] = []
            definitions.reserveCapacity(order.count)
            for (worker, index, _) in order {
                if let definition = outputs[worker][index].definition.take() { definitions.append(definition) }
                let output = outputs[worker][index]
                parser.absorb(parsers[worker], diagnostics: output.diagnostics, segments: output.segments)
            }
            parser.absorb(definitions: definitions)
        }
    }
}
