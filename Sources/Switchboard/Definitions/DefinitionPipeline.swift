import Locking
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
        if concurrent ?? (bytes.count >= concurrencyThreshold), let split = parseSplit(bytes, file: file, today: today) {
            return split
        }
        var parser = DefinitionParser(file: file, today: today)
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
        let detached = Set(namespaces.byKey.withLock { $0.keys })
        // Definitions keep file order: a flags/preferences mapping left in the document (one with a tag or an
        // anchor never reaches `shouldSplit`) after a split one would be read out of order.
        if case .mapping(let pairs)? = document.root?.content {
            var splitSeen = false
            for pair in pairs {
                guard let key = pair.key.scalar?.text, key == "flags" || key == "preferences" else { continue }
                if detached.contains(key) {
                    splitSeen = true
                } else if splitSeen {
                    return nil
                }
            }
        }
        var parser = DefinitionParser(file: file, today: today)
        parser.parse(document, detached: detached)
        workers.merge(into: &parser)
        return parser
    }

    /// The namespace of each split top-level key's entries: set on the parsing thread, read on both.
    private final class Namespaces: Sendable {
        let byKey = Locked<[String: String?]>([:])
    }

    /// One parser per worker thread, and what each entry gave.
    private final class Workers: Sendable {
        /// What one entry gave: its definition, moved out of its worker's parser, and the diagnostics and segments
        /// it added there.
        struct Output {
            var position: Int
            var definition: Definition?
            var diagnostics: Range<Int>
            var segments: Range<Int>
        }

        /// One worker's parser and outputs: an object of its own, so the two threads never write to shared
        /// storage (not even two slots of one array, whose buffer both would check for uniqueness).
        final class Worker: @unchecked Sendable {
            /// Touched only by its worker thread until the parse returns.
            var parser: DefinitionParser
            var outputs: [Output] = []

            init(parser: DefinitionParser) {
                self.parser = parser
            }
        }

        let workers: [Worker]

        init(file: String, today: Day) {
            workers = [Worker(parser: DefinitionParser(file: file, today: today)),
                       Worker(parser: DefinitionParser(file: file, today: today))]
        }

        func parse(_ entry: Node.Pair, worker index: Int, position: Int, kind: Definition.Kind, namespace: String?) {
            let worker = workers[index]
            let before = (worker.parser.diagnostics.count, worker.parser.segments.count, worker.parser.definitions.count)
            worker.parser.parseDefinition(entry, kind: kind, namespace: namespace)
            // An entry gives one definition, or none when it has errors.
            let definition = worker.parser.definitions.count > before.2 ? worker.parser.takeLastDefinition() : nil
            worker.outputs.append(Output(
                position: position, definition: definition,
                diagnostics: before.0..<worker.parser.diagnostics.count,
                segments: before.1..<worker.parser.segments.count))
        }

        /// Appends every entry's results to `parser`, in source order, moving the definitions rather than copying.
        func merge(into parser: inout DefinitionParser) {
            var order: [(worker: Int, index: Int, position: Int)] = []
            order.reserveCapacity(workers[0].outputs.count + workers[1].outputs.count)
            for (number, worker) in workers.enumerated() {
                for index in worker.outputs.indices {
                    order.append((number, index, worker.outputs[index].position))
                }
            }
            order.sort { $0.position < $1.position }
            var definitions: [Definition] = []
            definitions.reserveCapacity(order.count)
            for (number, index, _) in order {
                let worker = workers[number]
                if let definition = worker.outputs[index].definition.take() { definitions.append(definition) }
                let output = worker.outputs[index]
                parser.absorb(worker.parser, diagnostics: output.diagnostics, segments: output.segments)
            }
            parser.absorb(definitions: definitions)
        }
    }
}
