import Foundation
import Locking
import YAML

/// What loading a definitions directory produced: the registry of every valid definition and every diagnostic,
/// in file and line order.
public struct LoadReport: Sendable {
    /// The valid definitions. Use it only when ``hasErrors`` is false, unless partial results are wanted.
    public var registry: Registry
    /// Errors and warnings, in file and line order.
    public var diagnostics: [Diagnostic]

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains(where: \.isError) }
    /// Only the errors.
    public var errors: [Diagnostic] { diagnostics.filter(\.isError) }
    /// Only the warnings.
    public var warnings: [Diagnostic] { diagnostics.filter { !$0.isError } }
}

/// Definitions could not be loaded; carries every diagnostic.
public struct LoadError: Error, Sendable, CustomStringConvertible {
    /// Every diagnostic of the load, errors and warnings.
    public var diagnostics: [Diagnostic]

    /// Creates the error.
    public init(diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    /// Each diagnostic on its own line(s).
    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}

/// Reads definitions files into a ``Registry``.
///
/// A directory load reads every `*.yaml` and `*.yml` file below the directory (and flagd's `*.flagd.json`), in
/// byte order of their relative paths, skipping hidden folders, `environments/` (override files) and
/// `*.overrides.yaml` files. Files named `*.flagd.yaml`, `*.flagd.yml` or `*.flagd.json` are read in flagd's format.
public enum DefinitionLoader {
    /// Loads every definitions file below a directory.
    ///
    /// - Parameters:
    ///   - directory: the definitions directory.
    ///   - today: the day `expires` is checked against.
    ///   - now: the time schedules are checked against, in seconds since the epoch (default: the clock's).
    public static func load(directory: String, today: Day = .today(), now: Double? = nil) -> LoadReport {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            let diagnostic = Diagnostic.error(
                at: nil, "definitions directory '\(directory)' does not exist",
                hint: "run in a project with a flags/ folder, or pass --flags DIR")
            return LoadReport(registry: .empty, diagnostics: [diagnostic])
        }
        return load(paths: definitionFiles(in: directory), today: today, now: now, workers: defaultWorkers)
    }

    /// Loads definitions from files already in memory, in the order given; `today` and `now` as for
    /// ``load(directory:today:now:)``.
    public static func load(
        sources: [(path: String, bytes: [UInt8])], today: Day = .today(), now: Double? = nil
    ) -> LoadReport {
        load(sources: sources, today: today, now: now, workers: defaultWorkers)
    }

    /// How many files are read and parsed at once: one per core.
    static var defaultWorkers: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// Reads and parses the files at `paths` on up to `workers` threads, then joins them in path order.
    static func load(paths: [String], today: Day, now: Double?, workers: Int) -> LoadReport {
        let results = eachFile(paths.count, workers: workers) { index -> FileResult? in
            guard let data = FileManager.default.contents(atPath: paths[index]) else { return nil }
            return parse([UInt8](data), path: paths[index], today: today)
        }
        var unreadable: [Diagnostic] = []
        var files: [(path: String, result: FileResult)] = []
        files.reserveCapacity(paths.count)
        // Consumed, here and below, so that each file's result has one owner and the join can move its definitions.
        for (path, result) in zip(paths, consume results) {
            if let result { files.append((path, result)) } else { unreadable.append(.error(at: nil, "cannot read \(path)")) }
        }
        var report = join(consume files, now: now)
        report.diagnostics = Diagnostic.sorted(unreadable + report.diagnostics)
        return report
    }

    /// Parses sources on up to `workers` threads, then joins them in the order given.
    static func load(
        sources: [(path: String, bytes: [UInt8])], today: Day, now: Double?, workers: Int
    ) -> LoadReport {
        let results = eachFile(sources.count, workers: workers) { index in
            parse(sources[index].bytes, path: sources[index].path, today: today)
        }
        return join(Array(zip(sources.lazy.map(\.path), consume results)), now: now)
    }

    /// What one file gave, before the files are joined.
    struct FileResult {
        enum Source {
            case flagd(definitions: [Definition], diagnostics: [Diagnostic])
            case yaml(DefinitionParser)
        }

        var source: Source
        /// Whether a key of the file is not simple (see ``EnvironmentName/isSimple(_:)``): only then can two keys
        /// share an environment variable.
        var hasComplexKeys = false
        /// The positions, among the file's definitions, of the keys that map to one of Switchboard's own variables.
        var reservedKeys: [Int] = []

        /// Reads what the join checks of each key here, on the thread that read the file: the join runs alone.
        init(_ source: Source) {
            self.source = source
            let definitions = switch source {
            case .flagd(let definitions, _): definitions
            case .yaml(let parser): parser.definitions
            }
            for index in definitions.indices {
                let key = definitions[index].key
                if !hasComplexKeys && !EnvironmentName.isSimple(key) { hasComplexKeys = true }
                if KeySyntax.reservedVariable(forKey: key) != nil { reservedKeys.append(index) }
            }
        }

        /// How many definitions the file gave.
        var definitionCount: Int {
            switch source {
            case .flagd(let definitions, _): definitions.count
            case .yaml(let parser): parser.definitions.count
            }
        }

        /// The file's definitions, leaving none here (see ``DefinitionParser/takeDefinitions()``).
        mutating func takeDefinitions() -> [Definition] {
            switch source {
            case .flagd(let definitions, let diagnostics):
                source = .flagd(definitions: [], diagnostics: diagnostics)
                return definitions
            case .yaml(var parser):
                source = .flagd(definitions: [], diagnostics: [])
                return parser.takeDefinitions()
            }
        }
    }

    /// Reads one file on its own: nothing in it depends on another file until they are joined.
    static func parse(_ bytes: [UInt8], path: String, today: Day) -> FileResult {
        if FlagdFiles.isFlagdFile(path) {
            let (flagSet, flagdDiagnostics) = FlagdFlagSet.parse(bytes, file: path)
            return FileResult(.flagd(
                definitions: FlagdFiles.definitions(of: flagSet, file: path),
                diagnostics: FlagdFiles.tolerated(flagdDiagnostics, loaded: !flagSet.flags.isEmpty)))
        }
        return FileResult(.yaml(DefinitionPipeline.parse(bytes, file: path, today: today)))
    }

    /// `body` for each index below `count`, on up to `workers` threads taking the next index as they finish one,
    /// so that a large file does not hold back the small ones behind it; the results in index order.
    static func eachFile<Result>(_ count: Int, workers: Int, _ body: @Sendable (Int) -> Result) -> [Result] {
        let workers = min(workers, count)
        guard workers > 1 else { return (0..<count).map(body) }
        // One object per result, so that no two threads write to the same storage.
        let slots = (0..<count).map { _ in Slot<Result>() }
        let next = Locked(0)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let index = next.withLock { next in
                    defer { next += 1 }
                    return next
                }
                guard index < count else { return }
                slots[index].value = body(index)
            }
        }
        return slots.map { $0.value! }
    }

    /// One file's result, written by the thread that read it and read once all threads are done.
    private final class Slot<Value>: @unchecked Sendable {
        var value: Value?
    }

    /// Builds one registry from every file's result, in the order given: the same registry and diagnostics
    /// however many threads read the files.
    static func join(_ files: consuming [(path: String, result: FileResult)], now: Double?) -> LoadReport {
        var files = files
        var diagnostics: [Diagnostic] = []
        var segments: [String: (conditions: Node, location: SourceLocation)] = [:]
        var total = 0
        var hasComplexKeys = false
        var reservedKeys: [Int] = []
        for index in files.indices {
            reservedKeys += files[index].result.reservedKeys.lazy.map { total + $0 }
            total += files[index].result.definitionCount
            hasComplexKeys = hasComplexKeys || files[index].result.hasComplexKeys
            switch files[index].result.source {
            case .flagd(_, let flagdDiagnostics):
                diagnostics.append(contentsOf: flagdDiagnostics)
            case .yaml(let parser):
                diagnostics.append(contentsOf: parser.diagnostics)
                for segment in parser.segments {
                    if let first = segments[segment.name] {
                        diagnostics.append(.error(
                            at: segment.location, "segment \(segment.name) is already defined at \(first.location)",
                            hint: "segments are shared by every file; give this one another name"))
                    } else {
                        segments[segment.name] = (segment.conditions, segment.location)
                    }
                }
            }
        }
        // The files' definitions are moved into one array, last first: copying 10,000 of them (a reference count
        // touched per field, each in memory another thread wrote) was most of the join's time.
        let definitions = [Definition](unsafeUninitializedCapacity: total) { buffer, initialized in
            var end = total
            for index in files.indices.reversed() {
                var taken = files[index].result.takeDefinitions()
                while let definition = taken.popLast() {
                    end -= 1
                    (buffer.baseAddress! + end).initialize(to: definition)
                }
            }
            precondition(end == 0, "a file's definitions changed while they were joined")
            initialized = total
        }
        var (unique, conflicts, positions) = checkAcrossFiles(
            consume definitions, checksVariables: hasComplexKeys, reservedKeys: reservedKeys)
        diagnostics.append(contentsOf: conflicts)
        let count = unique.count
        diagnostics.append(contentsOf: compileTargeting(&unique, segments: segments))
        diagnostics.append(contentsOf: finishedSchedules(unique, now: now ?? Clock.secondsSinceEpoch()))
        // The positions found while checking still hold when targeting dropped no definition.
        let registry = Registry(definitions: unique, files: files.map(\.path),
                                index: unique.count == count ? positions : nil)
        return LoadReport(registry: registry, diagnostics: Diagnostic.sorted(diagnostics))
    }

    /// Finds keys defined twice, environment variable names shared by two keys or taken by Switchboard itself, and
    /// `renamed_from` entries that name a live key; keeps the first of each. Also gives the position of each key
    /// among the definitions kept, when none was dropped.
    ///
    /// - Parameters:
    ///   - checksVariables: whether any key is not simple (see ``EnvironmentName/isSimple(_:)``): distinct keys
    ///     can only share a variable then, so without one the variables need no checking.
    ///   - reservedKeys: the positions, in order, of the keys that map to one of Switchboard's own variables.
    static func checkAcrossFiles(_ definitions: [Definition], checksVariables: Bool, reservedKeys: [Int])
        -> (definitions: [Definition], diagnostics: [Diagnostic], positions: [String: Int]?)
    {
        var diagnostics: [Diagnostic] = []
        var seen: [String: Int] = [:]
        var variables: [EnvironmentName: Int] = [:]
        seen.reserveCapacity(definitions.count)
        if checksVariables { variables.reserveCapacity(definitions.count) }
        var dropped: [Int] = []
        var nextReserved = 0
        // By index, reading fields in place: iterating the definitions would copy each one.
        for index in definitions.indices {
            let key = definitions[index].key
            let isReserved = nextReserved < reservedKeys.count && reservedKeys[nextReserved] == index
            if isReserved { nextReserved += 1 }
            // One lookup for the usual key, new and kept; the rare one found or dropped is put back as it was.
            if let first = seen.updateValue(index, forKey: key) {
                seen[key] = first
                let definition = definitions[index]
                diagnostics.append(.error(
                    at: definition.location, "\(definition.key) is already defined at \(definitions[first].location)",
                    hint: "a key is defined once across all files; rename or remove one of them"))
                dropped.append(index)
                continue
            }
            if isReserved, let variable = KeySyntax.reservedVariable(forKey: key) {
                let definition = definitions[index]
                if definition.targeting?.isFlagd == true {
                    // flagd files keep their keys as written: the flag loads, but no variable overrides it.
                    diagnostics.append(.warning(
                        at: definition.location, "\(key) maps to \(variable), one of Switchboard's own variables",
                        hint: "the environment cannot override it; rename the flag to override it there"))
                } else {
                    diagnostics.append(.error(
                        at: definition.location, "\(key) maps to \(variable), one of Switchboard's own variables",
                        hint: "rename the key, or give its file a namespace"))
                    seen[key] = nil
                    dropped.append(index)
                    continue
                }
            }
            guard checksVariables else { continue }
            let name = EnvironmentName(key)
            if let otherIndex = variables[name] {
                let definition = definitions[index]
                let other = definitions[otherIndex]
                let variable = KeySyntax.environmentVariable(for: definition.key)
                if definition.targeting?.isFlagd == true {
                    // flagd files keep their keys as written; they load, but the variable is ambiguous.
                    diagnostics.append(.warning(
                        at: definition.location,
                        "\(definition.key) and \(other.key) (\(other.location)) map to the same environment variable \(variable)",
                        hint: "that variable overrides both; rename one to override them separately"))
                } else {
                    diagnostics.append(.error(
                        at: definition.location,
                        "\(definition.key) and \(other.key) (\(other.location)) map to the same environment variable \(variable)",
                        hint: "rename one: '-' and '_' are the same in a variable name"))
                    seen[key] = nil
                    dropped.append(index)
                    continue
                }
            }
            variables[name] = index
        }
        // Copy the definitions only when some are dropped; usually every one is kept.
        var unique = definitions
        if !dropped.isEmpty {
            let droppedSet = Set(dropped)
            unique = definitions.enumerated().filter { !droppedSet.contains($0.offset) }.map(\.element)
        }
        var renamedBy: [String: String] = [:]
        for index in unique.indices where !unique[index].renamedFrom.isEmpty {
            let definition = unique[index]
            for old in definition.renamedFrom {
                if seen[old] != nil {
                    diagnostics.append(.error(
                        at: definition.location, "\(definition.key) is renamed from \(old), which is still defined",
                        hint: "remove \(old) from renamed_from, or delete its definition"))
                } else if let other = renamedBy[old] {
                    diagnostics.append(.error(
                        at: definition.location, "both \(other) and \(definition.key) are renamed from \(old)",
                        hint: "an old key can carry its overrides to one new key only"))
                } else {
                    renamedBy[old] = definition.key
                }
            }
        }
        return (unique, diagnostics, dropped.isEmpty ? seen : nil)
    }

    /// Compiles every definition's readable targeting once all segments are known, then checks prerequisites:
    /// each names a defined flag and a value it can have, and no chain of them loops.
    static func compileTargeting(
        _ definitions: inout [Definition], segments: [String: (conditions: Node, location: SourceLocation)]
    ) -> [Diagnostic] {
        var compiler = RuleCompiler(segments: segments)
        var rejected = Set<Int>()
        var requirements: [Int: Node] = [:]
        var schedules: [Int: (node: Node, pending: PendingTargeting)] = [:]
        for index in definitions.indices {
            guard let pending = definitions[index].pending else { continue }
            if let schedule = pending.schedule { schedules[index] = (schedule, pending) }
            let errorsBefore = compiler.diagnostics.count
            definitions[index].targeting = compiler.compile(pending, for: definitions[index])
            definitions[index].pending = nil
            if compiler.diagnostics.count > errorsBefore { rejected.insert(index) }
            if let requires = pending.requires { requirements[index] = requires }
        }
        var diagnostics = compiler.diagnostics
        // The schedules last, once each definition's own targeting and prerequisites are known: every step's
        // definition is compiled from them.
        func compileSchedules() {
            for (index, schedule) in schedules.sorted(by: { $0.key < $1.key }) where !rejected.contains(index) {
                let before = compiler.diagnostics.count
                let box = compiler.compileSchedule(
                    schedule.node, pending: schedule.pending, for: definitions[index],
                    prerequisites: definitions[index].targeting?.prerequisites ?? [])
                diagnostics += compiler.diagnostics[before...]
                if let box { definitions[index].scheduleBox = box } else { rejected.insert(index) }
            }
        }
        guard !requirements.isEmpty else {
            compileSchedules()
            if !rejected.isEmpty {
                definitions = definitions.enumerated().filter { !rejected.contains($0.offset) }.map(\.element)
            }
            return diagnostics
        }
        let positions = Dictionary(definitions.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
        for (index, node) in requirements.sorted(by: { $0.key < $1.key }) {
            var prerequisites: [DefinitionTargeting.Prerequisite] = []
            for item in node.items ?? [node] {
                let fields = Dictionary((item.pairs ?? []).map { ($0.key.scalar?.text ?? "", $0.value) },
                                        uniquingKeysWith: { first, _ in first })
                guard let flagNode = fields["flag"], let key = flagNode.scalar?.text, let valueNode = fields["value"],
                      fields.count == 2
                else {
                    diagnostics.append(.error(at: item.location, "a requirement is `{ flag: KEY, value: VALUE }`",
                                              hint: "for example `requires: { flag: checkout.payments_v2, value: true }`"))
                    rejected.insert(index)
                    continue
                }
                guard let position = positions[key] else {
                    // In declaration order, not the dictionary's: of two keys as near, the same one every run.
                    let hint = Suggestions.nearest(to: key, in: definitions.lazy.map(\.key)).map(Message.didYouMean(one:))
                    diagnostics.append(.error(at: flagNode.location, "requires unknown flag '\(key)'", hint: hint))
                    rejected.insert(index)
                    continue
                }
                let other = definitions[position]
                // A variant flag's requirement may name a variant; any value must be one the flag can have.
                let written = valueNode.scalar.flatMap { other.value(ofVariant: $0.text) }
                let parsed = written.map { Result<Value, ValueProblem>.success($0) } ?? Value.from(valueNode, as: other.type)
                switch parsed.flatMap({ value in other.problem(with: value).map { .failure($0) } ?? .success(value) }) {
                case .failure(let problem):
                    diagnostics.append(.error(at: valueNode.location, "required value of \(key): \(problem.message)",
                                              hint: problem.hint))
                    rejected.insert(index)
                case .success(let value):
                    prerequisites.append(.init(key: key, value: value, location: flagNode.location))
                }
            }
            if definitions[index].targeting == nil, !rejected.contains(index) {
                let definition = definitions[index]
                var outcomes: [String: DefinitionTargeting.Outcome] = [:]
                outcomes["#default"] = .init(value: definition.defaultValue, variant: definition.defaultVariant)
                let flag = FlagdFlag(key: definition.key, variants: ["#default": definition.defaultValue],
                                     defaultVariant: "#default", location: definition.location)
                definitions[index].targeting = DefinitionTargeting(flag: flag, outcomes: outcomes, isFlagd: false)
            }
            definitions[index].targeting?.prerequisites = prerequisites
        }
        // A prerequisite chain that loops would never resolve.
        var state = [Int: Bool]()  // false: on the current path; true: done
        func visit(_ index: Int, path: [String]) -> [String]? {
            if state[index] == true { return nil }
            if state[index] == false { return path + [definitions[index].key] }
            state[index] = false
            for prerequisite in definitions[index].targeting?.prerequisites ?? [] {
                if let position = positions[prerequisite.key],
                   let cycle = visit(position, path: path + [definitions[index].key])
                {
                    return cycle
                }
            }
            state[index] = true
            return nil
        }
        for index in definitions.indices where state[index] == nil {
            if let cycle = visit(index, path: []) {
                let start = cycle.firstIndex(of: cycle.last!)!
                let loop = cycle[start...].joined(separator: " → ")
                let position = positions[cycle[start]]!
                let location = definitions[position].targeting?.prerequisites.first?.location ?? definitions[position].location
                diagnostics.append(.error(at: location, "prerequisites form a cycle: \(loop)",
                                          hint: "a flag cannot require itself, directly or through others"))
                for key in cycle[start...] { if let p = positions[key] { rejected.insert(p) } }
            }
        }
        compileSchedules()
        if !rejected.isEmpty {
            definitions = definitions.enumerated().filter { !rejected.contains($0.offset) }.map(\.element)
        }
        return diagnostics
    }

    /// A warning for each schedule whose every step is past at `now`: done, and better folded into the definition.
    static func finishedSchedules(_ definitions: [Definition], now: Double) -> [Diagnostic] {
        definitions.compactMap { definition in
            guard let last = definition.schedule?.steps.last, last.at <= now else { return nil }
            return .warning(at: last.location,
                            "every schedule step of \(definition.key) is past (the last at \(last.atText)): the schedule is done",
                            hint: "fold the last step into the definition and remove `schedule:`")
        }
    }

    /// Whether a file of this name (the last component of its path) holds definitions: YAML or a flagd file, and
    /// not an override file. Folders whose name starts with `.` and `environments/` hold none.
    package static func isDefinitionFileName(_ name: String) -> Bool {
        guard name.hasSuffix(".yaml") || name.hasSuffix(".yml") || FlagdFiles.isFlagdFile(name) else { return false }
        return !name.hasSuffix(".overrides.yaml") && !name.hasSuffix(".overrides.yml")
    }

    /// The definitions files below a directory, in byte order of their relative paths.
    public static func definitionFiles(in directory: String) -> [String] {
        // Enumerate the real folder, so a definitions directory that is a symlink works; paths keep the name given.
        let real = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path
        guard let enumerator = FileManager.default.enumerator(atPath: real) else { return [] }
        var relative: [String] = []
        while let path = enumerator.nextObject() as? String {
            let name = FilePaths.lastComponent(of: path)
            if name.hasPrefix(".") || name == "environments" {
                if (enumerator.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory {
                    enumerator.skipDescendants()
                }
                continue
            }
            guard isDefinitionFileName(name) else { continue }
            relative.append(path)
        }
        relative.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return relative.map { prefix + $0 }
    }
}
