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
/// The files are read and parsed on every core and joined in that order as they come: the registry and the
/// diagnostics are the same whatever the number of cores.
public enum DefinitionLoader {
    /// Loads every definitions file below a directory.
    ///
    /// - Parameters:
    ///   - directory: the definitions directory.
    ///   - today: the day `expires` is checked against.
    ///   - now: the time schedules are checked against, in seconds since the epoch (default: the clock's).
    public static func load(directory: String, today: Day = .today(), now: Double? = nil) -> LoadReport {
        if let report = DefinitionPrefetch.take(directory: directory, today: today, now: now) { return report }
        return read(directory: directory, today: today, now: now)
    }

    /// ``load(directory:today:now:)`` without looking for a prefetched load (``DefinitionPrefetch``).
    static func read(directory: String, today: Day, now: Double?) -> LoadReport {
        // `stat`, not `FileManager`: on a one-shot command's prefetch thread, FileManager's first use delayed the
        // first file's read.
        if let problem = directoryProblem(directory) { return LoadReport(registry: .empty, diagnostics: [problem]) }
        let paths = definitionFiles(in: directory)
        if paths.isEmpty { return LoadReport(registry: .empty, diagnostics: [noDefinitionFiles(in: directory)]) }
        return load(paths: paths, today: today, now: now, workers: defaultWorkers)
    }

    /// The warning for a definitions directory with no definitions file in it: a job pointed at the wrong folder
    /// would otherwise pass with nothing checked. A warning, not an error: a new project starts empty.
    static func noDefinitionFiles(in directory: String) -> Diagnostic {
        .warning(at: nil, "no definitions file in '\(directory)'",
                 hint: "definitions are .yaml and .yml files (flagd's as .flagd.json); pass the folder that holds "
                     + "them: --flags DIR")
    }

    /// The error for a definitions directory that is not there, or is a file; `nil` when it is a directory.
    package static func directoryProblem(_ directory: String) -> Diagnostic? {
        var status = stat()
        guard stat(directory, &status) == 0 else {
            // Said for the command line and for code alike; a relative path is the usual surprise in code, whose
            // working directory is often not the project's.
            let relative = directory.hasPrefix("/") ? ""
                : "; a relative path is read from the working directory, \(FileManager.default.currentDirectoryPath)"
            return .error(at: nil, "definitions directory '\(directory)' does not exist",
                          hint: "run where the flags/ folder is, or give its path (--flags DIR; Board(directory:) in "
                              + "code)" + relative)
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            return .error(at: nil, "'\(directory)' is a file, not a definitions directory",
                          hint: "pass the folder that holds it: --flags DIR")
        }
        return nil
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

    /// Reads and parses the files at `paths` on up to `workers` threads, joining them in path order as they come.
    static func load(paths: [String], today: Day, now: Double?, workers: Int) -> LoadReport {
        let sizes = paths.map { path in
            var status = stat()
            return stat(path, &status) == 0 ? Int(status.st_size) : 0
        }
        let joiner = FileJoiner(totalBytes: sizes.reduce(0, +))
        eachFile(paths.count, workers: workers) { index in
            let result = contents(ofFile: paths[index], expectedSize: sizes[index]).map {
                parse($0, path: paths[index], today: today, reading: reading(index, of: paths.count, workers: workers))
            }
            joiner.deliver(index, path: paths[index], bytes: sizes[index], consume result)
        }
        return joiner.finish(count: paths.count, now: now)
    }

    /// The bytes of the file at `path`, read straight into the array the parser takes (`FileManager` read into a
    /// `Data` that was then copied); `nil` when it cannot be read. `expectedSize` is its size when it was listed.
    static func contents(ofFile path: String, expectedSize: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return FileBytes.read(descriptor, expectedSize: expectedSize)
    }

    /// How file `index` of `count` is read by `workers` threads: the last one on two threads, entry by entry,
    /// however small, since the threads that finish before it would otherwise wait for it with nothing to do.
    static func reading(_ index: Int, of count: Int, workers: Int) -> DefinitionPipeline.Reading {
        index == count - 1 && workers > 1 && count > 1 ? .entries(threads: 2) : .automatic
    }

    /// Parses sources on up to `workers` threads, joining them in the order given as they come.
    static func load(
        sources: [(path: String, bytes: [UInt8])], today: Day, now: Double?, workers: Int
    ) -> LoadReport {
        let joiner = FileJoiner(totalBytes: sources.reduce(0) { $0 + $1.bytes.count })
        eachFile(sources.count, workers: workers) { index in
            joiner.deliver(index, path: sources[index].path, bytes: sources[index].bytes.count,
                           parse(sources[index].bytes, path: sources[index].path, today: today,
                                 reading: reading(index, of: sources.count, workers: workers)))
        }
        return joiner.finish(count: sources.count, now: now)
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
        /// The positions of the definitions with `renamed_from` entries, and of those with targeting to compile.
        var renamedKeys: [Int] = []
        var targetedKeys: [Int] = []

        /// Works out, on the thread that parsed the file, what the join needs to know of each definition (whether
        /// its key is simple or maps to one of Switchboard's own variables, whether it renames keys or has targeting
        /// to compile), so that the joining thread does less and the end of the load reads only those.
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
                if !definitions[index].renamedFrom.isEmpty { renamedKeys.append(index) }
                if definitions[index].pending != nil { targetedKeys.append(index) }
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
    static func parse(
        _ bytes: [UInt8], path: String, today: Day, reading: DefinitionPipeline.Reading = .automatic
    ) -> FileResult {
        if FlagdFiles.isFlagdFile(path) {
            let (flagSet, flagdDiagnostics) = FlagdFlagSet.parse(bytes, file: path)
            return FileResult(.flagd(
                definitions: FlagdFiles.definitions(of: flagSet, file: path),
                diagnostics: FlagdFiles.tolerated(flagdDiagnostics, loaded: !flagSet.flags.isEmpty)))
        }
        return FileResult(.yaml(DefinitionPipeline.parse(bytes, file: path, today: today, reading: reading)))
    }

    /// `body` for each index below `count`, on up to `workers` threads taking the next index as they finish one,
    /// so that a large file does not hold back the small ones behind it.
    static func eachFile(_ count: Int, workers: Int, _ body: @Sendable (Int) -> Void) {
        let workers = min(workers, count)
        guard workers > 1 else { return (0..<count).forEach(body) }
        let next = Locked(0)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let index = next.withLock { next in
                    defer { next += 1 }
                    return next
                }
                guard index < count else { return }
                body(index)
            }
        }
    }

    /// Compiles the readable targeting of the definitions at `targeted` (in order: those with targeting to compile)
    /// once all segments are known, then checks prerequisites: each names a defined flag and a value it can have,
    /// and no chain of them loops. Returns the problems, and the positions the definitions with a schedule had
    /// before any was dropped: they hold only when `definitions` kept its count.
    static func compileTargeting(
        _ definitions: inout [Definition], targeted: [Int],
        segments: [String: (conditions: Node, location: SourceLocation)]
    ) -> (diagnostics: [Diagnostic], scheduled: [Int]) {
        var compiler = RuleCompiler(segments: segments)
        var rejected = Set<Int>()
        var requirements: [Int: Node] = [:]
        var schedules: [Int: (node: Node, pending: PendingTargeting)] = [:]
        for index in targeted {
            guard let pending = definitions[index].pending else { continue }
            if let schedule = pending.schedule { schedules[index] = (schedule, pending) }
            let errorsBefore = compiler.diagnostics.count
            definitions[index].targeting = compiler.compile(pending, for: definitions[index])
            definitions[index].pending = nil
            if compiler.diagnostics[errorsBefore...].contains(where: \.isError) { rejected.insert(index) }
            if let requires = pending.requires { requirements[index] = requires }
        }
        var diagnostics = compiler.diagnostics
        // The schedules last, once each definition's own targeting and prerequisites are known: every step's
        // definition is compiled from them.
        var scheduled: [Int] = []
        func compileSchedules() {
            // A definition whose rules or prerequisites are wrong still has its schedule checked: one run reports
            // every mistake.
            for (index, schedule) in schedules.sorted(by: { $0.key < $1.key }) {
                let before = compiler.diagnostics.count
                let box = compiler.compileSchedule(
                    schedule.node, pending: schedule.pending, for: definitions[index],
                    prerequisites: definitions[index].targeting?.prerequisites ?? [])
                diagnostics += compiler.diagnostics[before...]
                if let box, !rejected.contains(index) {
                    definitions[index].scheduleBox = box
                    scheduled.append(index)
                } else {
                    rejected.insert(index)
                }
            }
        }
        guard !requirements.isEmpty else {
            compileSchedules()
            if !rejected.isEmpty {
                definitions = definitions.enumerated().filter { !rejected.contains($0.offset) }.map(\.element)
            }
            return (diagnostics, scheduled)
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
        return (diagnostics, scheduled)
    }

    /// A warning for each schedule whose every step is past at `now`: done, and better folded into the definition.
    static func finishedSchedules(_ registry: Registry, now: Double) -> [Diagnostic] {
        registry.scheduled.compactMap { position in
            let definition = registry.definitions[position]
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
    ///
    /// Listed with `readdir` (Foundation's enumerator cost a millisecond of every command's start on its first use).
    /// The directory itself may be a symbolic link; links below it are listed when their names are definitions
    /// files, and never followed into. Folders on other file systems (a mounted volume) are read like any other.
    public static func definitionFiles(in directory: String) -> [String] {
        var relative: [String] = []
        func walk(_ folder: String, prefix: String) {
            guard let stream = opendir(folder) else { return }
            var folders: [String] = []
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                // Hidden folders and `environments/` (override files) hold no definitions.
                if name.hasPrefix(".") || name == "environments" { continue }
                if isDefinitionFileName(name) { relative.append(prefix + name) }
                var isFolder = Int32(entry.pointee.d_type) == Int32(DT_DIR)
                if Int32(entry.pointee.d_type) == Int32(DT_UNKNOWN) {
                    var status = stat()
                    isFolder = lstat(FilePaths.join(folder, name), &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
                }
                if isFolder { folders.append(name) }
            }
            // Closed before going down, so that one folder at a time is open.
            closedir(stream)
            for name in folders { walk(FilePaths.join(folder, name), prefix: prefix + name + "/") }
        }
        walk(directory, prefix: "")
        relative.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return relative.map { FilePaths.join(directory, $0) }
    }
}
