import Locking
import YAML

/// Reads a definitions file entry by entry: the entries of `flags:` and `preferences:` are split off the document
/// as libyaml scans it, each plain one is read straight from its events
/// (``DefinitionParser/appendPlainDefinition(_:kind:namespace:)``) and the others are built as nodes and read as the
/// document is. A large file (and the last of a folder's files, see `DefinitionLoader.reading`) is read on two
/// cores: while libyaml scans on the calling thread, the entries are read on a second thread (and on this one once
/// the scan is done). The result is the same, diagnostic for diagnostic, as reading the whole document first; tests
/// hold the paths to that.
///
/// Entries are split off only when their namespace is known when they start (a file that writes `namespace:`
/// first, as every example does); otherwise, and for anything ``YAMLParser/parse(_:file:limits:splitting:threads:)``
/// leaves to a one-piece parse, the file is read in one piece.
enum DefinitionPipeline {
    /// Files at least this large are read on two threads; below it, the handoff costs more than it saves.
    static let concurrencyThreshold = 128 * 1024

    /// How a file is read: by its size, or one way (the loader's last file, and tests).
    enum Reading {
        /// Entry by entry, on two threads from ``concurrencyThreshold`` bytes on.
        case automatic
        /// The whole document's nodes first, then the definitions from them.
        case inOnePiece
        /// Entry by entry, on this many threads.
        case entries(threads: Int)
    }

    /// The definitions, diagnostics and segments of one file.
    static func parse(_ bytes: [UInt8], file: String, today: Day, reading: Reading = .automatic) -> DefinitionParser {
        let threads: Int? = switch reading {
        case .automatic: bytes.count >= concurrencyThreshold ? 2 : 1
        case .inOnePiece: nil
        case .entries(let threads): threads
        }
        if let threads, let split = parseSplit(bytes, file: file, today: today, threads: threads) {
            return split
        }
        var parser = DefinitionParser(file: file, today: today)
        parser.parse(YAMLParser.parse(bytes, file: file))
        return parser
    }

    private static func parseSplit(_ bytes: [UInt8], file: String, today: Day, threads: Int) -> DefinitionParser? {
        let workers = Workers(file: file, today: today, threads: threads, bytes: bytes.count)
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
                namespaces.split(key, namespace: namespace)
                return true
            },
            read: { worker, position, key, entry in
                let (kind, namespace) = namespaces.section(key)
                return workers.read(entry, worker: worker, position: position, kind: kind, namespace: namespace)
            },
            receive: { worker, position, key, entry in
                let (kind, namespace) = namespaces.section(key)
                workers.parse(entry, worker: worker, position: position, kind: kind, namespace: namespace)
            })
        guard let document = YAMLParser.parse(bytes, file: file, splitting: splitting, threads: threads) else {
            return nil
        }
        let detached = namespaces.splitKeys
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

    /// The namespace of each split top-level key's entries: set on the parsing thread, read on both. Two slots,
    /// not a dictionary: every entry asks, and hashing its key's name each time showed in the profile.
    private final class Namespaces: Sendable {
        /// For `flags` and `preferences`: `nil` until the key is split, then its namespace (itself optional).
        private let byKey = Locked<(flags: String??, preferences: String??)>((nil, nil))

        /// Records that the entries of `key` (`flags` or `preferences`) are split off, in `namespace`.
        func split(_ key: String, namespace: String?) {
            byKey.withLock { slots in
                if key == "flags" { slots.flags = .some(namespace) } else { slots.preferences = .some(namespace) }
            }
        }

        /// The keys whose entries are split off.
        var splitKeys: Set<String> {
            byKey.withLock { slots in
                var keys: Set<String> = []
                if slots.flags != nil { keys.insert("flags") }
                if slots.preferences != nil { keys.insert("preferences") }
                return keys
            }
        }

        /// What the entries of a split top-level key define, and in which namespace.
        func section(_ key: String) -> (kind: Definition.Kind, namespace: String?) {
            let isFlags = key == "flags"
            return (isFlags ? .flag : .preference, byKey.withLock { (isFlags ? $0.flags : $0.preferences) ?? nil })
        }
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
        /// Whether one worker reads every entry, in order: then its parser keeps what they give, in order, and
        /// there are no outputs to put back in order (each would move a definition twice more).
        let inOrder: Bool

        /// Workers for a file of `bytes`.
        init(file: String, today: Day, threads: Int, bytes: Int) {
            workers = [Worker(parser: DefinitionParser(file: file, today: today)),
                       Worker(parser: DefinitionParser(file: file, today: today))]
            inOrder = threads == 1
            // Room for as many definitions as the file can hold, in address space only (pages never touched are
            // never backed; a file read on one thread is under 128 KB, so at most a few megabytes): growing the
            // array moved every definition into fresh memory each time.
            if inOrder { workers[0].parser.reserve(definitions: bytes / DefinitionParser.smallestDefinitionBytes) }
        }

        func parse(_ entry: Node.Pair, worker index: Int, position: Int, kind: Definition.Kind, namespace: String?) {
            let worker = workers[index]
            if inOrder { return worker.parser.parseDefinition(entry, kind: kind, namespace: namespace) }
            let before = (worker.parser.diagnostics.count, worker.parser.segments.count, worker.parser.definitions.count)
            worker.parser.parseDefinition(entry, kind: kind, namespace: namespace)
            // An entry gives one definition, or none when it has errors.
            let definition = worker.parser.definitions.count > before.2 ? worker.parser.takeLastDefinition() : nil
            worker.outputs.append(Output(
                position: position, definition: definition,
                diagnostics: before.0..<worker.parser.diagnostics.count,
                segments: before.1..<worker.parser.segments.count))
        }

        /// Reads a plain entry from its events; false, having read nothing, when it is not plain.
        func read(_ entry: SplitEntry, worker index: Int, position: Int, kind: Definition.Kind, namespace: String?)
            -> Bool
        {
            let worker = workers[index]
            guard worker.parser.appendPlainDefinition(entry, kind: kind, namespace: namespace) else { return false }
            if inOrder { return true }
            let definition = worker.parser.takeLastDefinition()
            let (diagnostics, segments) = (worker.parser.diagnostics.count, worker.parser.segments.count)
            worker.outputs.append(Output(position: position, definition: definition,
                                         diagnostics: diagnostics..<diagnostics, segments: segments..<segments))
            return true
        }

        /// Appends every entry's results to `parser`, in source order, moving the definitions rather than copying.
        func merge(into parser: inout DefinitionParser) {
            if inOrder {
                let worker = workers[0]
                parser.absorb(worker.parser, diagnostics: worker.parser.diagnostics.indices,
                              segments: worker.parser.segments.indices)
                return parser.absorb(definitions: worker.parser.takeDefinitions())
            }
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
