import Locking
import YAML

/// Joins the files' results in their order while files are still being read: the thread that delivers the next
/// file in order joins it, and any after it that are already delivered, while the other threads read on. What is
/// left once every file is in is the part of the join that needs them all (targeting, prerequisites, schedules).
///
/// The result is the same however many threads deliver, and in whatever order: files are joined in index order.
final class FileJoiner: @unchecked Sendable {
    private struct Arrivals {
        var waiting: [Int: (path: String, bytes: Int, result: DefinitionLoader.FileResult?)] = [:]
        var next = 0
        /// Whether a thread is joining: one at a time, in order.
        var joining = false
    }

    private let arrivals = Locked(Arrivals())
    /// Touched only by the thread joining (handed on under the lock), and by ``finish(count:now:)`` once every
    /// thread is done.
    private var joined: JoinedFiles

    /// A joiner for files of `totalBytes` in all: from the first files' definitions per byte it sizes the
    /// registry's tables once, instead of growing them (and hashing every key again) file after file.
    init(totalBytes: Int) {
        joined = JoinedFiles(totalBytes: totalBytes)
    }

    /// Hands over file `index` (`bytes` long) and its result (`nil`: the file could not be read); joins it now if
    /// it is next.
    func deliver(_ index: Int, path: String, bytes: Int, _ result: consuming DefinitionLoader.FileResult?) {
        // Moved, not copied, into the queue: a second reference to a file's definitions would make the join copy
        // them all when it takes them out.
        var delivered = Optional((path, bytes, consume result))
        var item = arrivals.withLock { arrivals in
            arrivals.waiting[index] = delivered.take()
            return arrivals.joining ? nil : Self.takeNext(&arrivals)
        }
        while let (path, bytes, result) = item.take() {
            joined.add(path: path, bytes: bytes, result: consume result)
            item = arrivals.withLock { arrivals in Self.takeNext(&arrivals) }
        }
    }

    /// The next file in order if it is in, marking this thread as the one joining; else stops joining.
    private static func takeNext(_ arrivals: inout Arrivals)
        -> (path: String, bytes: Int, result: DefinitionLoader.FileResult?)?
    {
        guard let next = arrivals.waiting.removeValue(forKey: arrivals.next) else {
            arrivals.joining = false
            return nil
        }
        arrivals.joining = true
        arrivals.next += 1
        return next
    }

    /// The registry and diagnostics, once all `count` files are delivered (every ``deliver(_:path:bytes:_:)`` has
    /// returned). Call it once.
    func finish(count: Int, now: Double?) -> LoadReport {
        let joinedAll = arrivals.withLock { $0.next == count && !$0.joining }
        precondition(joinedAll, "the loader finished before every file was joined")
        // Swapped out, so that the joined files have one owner: a consuming call on the stored property would
        // work on a copy, and the definitions would be shared, and copied whole when targeting writes into them.
        var taken = JoinedFiles(totalBytes: 0)
        swap(&taken, &joined)
        return taken.finish(now: now)
    }
}

/// The files joined so far, in order: their definitions in one array, moved there rather than copied (a copy
/// touched a reference count per field, in memory another thread wrote), and each key checked against the keys
/// before it.
struct JoinedFiles {
    /// The size of every file together.
    private let totalBytes: Int
    /// The size of the files joined so far.
    private var bytesJoined = 0
    private var paths: [String] = []
    private var unreadable: [Diagnostic] = []
    private var definitions: [Definition] = []
    private var diagnostics: [Diagnostic] = []
    private var segments: [String: (conditions: Node, location: SourceLocation)] = [:]
    private var keys = KeyCheck()
    /// The positions of the keys that map to one of Switchboard's own variables.
    private var reservedKeys: [Int] = []
    /// The positions of the definitions with `renamed_from` entries, and of those with targeting to compile.
    private var renamed: [Int] = []
    private var targeted: [Int] = []

    init(totalBytes: Int) {
        self.totalBytes = totalBytes
    }

    mutating func add(path: String, bytes: Int, result: consuming DefinitionLoader.FileResult?) {
        bytesJoined += bytes
        guard var result = consume result else {
            unreadable.append(.error(at: nil, "cannot read \(path)"))
            return
        }
        paths.append(path)
        switch result.source {
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
        let start = definitions.count
        var taken = result.takeDefinitions()
        // When the definitions no longer fit: room for as many as the files so far promise for all the bytes (an
        // eighth more), once they are a fair sample (a thirty-second of the bytes). Usually one allocation and one
        // key table for the whole load, where growing them moved every definition and hashed every key again, file
        // after file. Grown only when they do not fit, not when the estimate moves past the room made: that moved
        // half the definitions into fresh memory (1.7 MB, 400 page faults) half-way through the benchmark's load.
        let needed = start + taken.count
        if definitions.capacity < needed {
            var room = needed
            if bytesJoined >= totalBytes / 32, bytesJoined > 0 {
                // A dense sample cannot ask for more than the bytes can hold.
                let expected = Swift.min(Int(Double(needed) * Double(totalBytes) / Double(bytesJoined)),
                                         totalBytes / DefinitionParser.smallestDefinitionBytes)
                room = Swift.max(room, expected + expected / 8)
            }
            room = Swift.max(room, definitions.capacity * 2)
            definitions.reserveCapacity(room)
            keys.reserve(room)
        }
        // Moved out last first, then put back in order: `popLast` takes an element without copying it.
        while let definition = taken.popLast() { definitions.append(consume definition) }
        // Swapped through the buffer, whose swaps move bytes: the collection algorithms copy each definition.
        definitions.withUnsafeMutableBufferPointer { buffer in
            var (low, high) = (start, buffer.count - 1)
            while low < high {
                buffer.swapAt(low, high)
                (low, high) = (low + 1, high - 1)
            }
        }
        reservedKeys += result.reservedKeys.lazy.map { start + $0 }
        renamed += result.renamedKeys.lazy.map { start + $0 }
        targeted += result.targetedKeys.lazy.map { start + $0 }
        if result.hasComplexKeys { keys.checkVariables() }
        keys.check(definitions, from: start, reservedKeys: reservedKeys)
    }

    /// Checks what needs every file, and builds the registry.
    consuming func finish(now: Double?) -> LoadReport {
        // Taken out, so that the array has one owner when targeting writes into it.
        var all: [Definition] = []
        swap(&all, &definitions)
        var (unique, conflicts, positions) = keys.finish(consume all, renamed: renamed)
        diagnostics.append(contentsOf: conflicts)
        let count = unique.count
        // The positions found while joining hold when the check dropped no definition; else they are found again.
        let targeted = positions != nil ? targeted : unique.indices.filter { unique[$0].pending != nil }
        let (targetingDiagnostics, scheduled) = DefinitionLoader.compileTargeting(
            &unique, targeted: targeted, segments: segments)
        diagnostics.append(contentsOf: targetingDiagnostics)
        // The positions found so far still hold when targeting dropped no definition: the registry then reads no
        // definition again (each pass over them all took a millisecond, on one core, at the end of the load).
        let known = unique.count == count
            ? positions.map { Registry.Positions(index: $0.index, renamed: $0.renamed, scheduled: scheduled) } : nil
        let registry = Registry(definitions: unique, files: paths, known: known)
        diagnostics.append(contentsOf: DefinitionLoader.finishedSchedules(
            registry, now: now ?? Clock.secondsSinceEpoch()))
        return LoadReport(registry: registry, diagnostics: Diagnostic.sorted(unreadable + diagnostics))
    }
}

/// Finds keys defined twice, environment variable names shared by two keys or taken by Switchboard itself, and
/// `renamed_from` entries that name a live key; keeps the first of each. Keys are checked in order, a file at a
/// time as files are joined; the `renamed_from` entries once all are in.
struct KeyCheck {
    /// Whether the variables are checked: distinct keys can only share one when some key is not simple (see
    /// ``EnvironmentName/isSimple(_:)``), so they are checked from the first file that has such a key on.
    private(set) var checksVariables = false
    private var diagnostics: [Diagnostic] = []
    private var seen: [String: Int] = [:]
    private var variables: [EnvironmentName: Int] = [:]
    private var dropped: [Int] = []
    private var checked = 0
    private var nextReserved = 0

    /// Checks the variables too, from the next keys on. The keys checked so far are all simple, so none of them
    /// shares a variable with another: each kept key's variable is simply recorded, as checking them would have.
    mutating func checkVariables() {
        guard !checksVariables else { return }
        checksVariables = true
        variables.reserveCapacity(Swift.max(seen.capacity, seen.count))
        for (key, index) in seen { variables[EnvironmentName(key)] = index }
    }

    /// Makes room for `count` keys.
    mutating func reserve(_ count: Int) {
        seen.reserveCapacity(count)
        if checksVariables { variables.reserveCapacity(count) }
    }

    /// Checks the keys of `definitions` from `start` on against those before. `reservedKeys` are the positions, in
    /// order, of every key so far (not only the new ones) that maps to one of Switchboard's own variables: the list
    /// passed last time, extended.
    mutating func check(_ definitions: [Definition], from start: Int, reservedKeys: [Int]) {
        precondition(start == checked, "keys are checked in order, each once")
        assert(nextReserved == 0 || reservedKeys[nextReserved - 1] < start, "reservedKeys is the whole list so far")
        checked = definitions.count
        // By index, reading fields in place: iterating the definitions would copy each one.
        for index in start..<definitions.count {
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
    }

    /// The definitions kept, every problem found, and where the keys and `renamed_from` entries are among the
    /// definitions kept when every key was kept and every entry is fine. `renamed` holds the positions, in order,
    /// of the definitions with `renamed_from` entries: only those are read again.
    consuming func finish(_ definitions: consuming [Definition], renamed: [Int]) -> (
        definitions: [Definition], diagnostics: [Diagnostic],
        positions: (index: [String: Int], renamed: [String: Int])?
    ) {
        precondition(checked == definitions.count, "every key is checked before the renamed ones")
        // Copy the definitions only when some are dropped; usually every one is kept.
        var unique = definitions
        var renamed = renamed
        if !dropped.isEmpty {
            let droppedSet = Set(dropped)
            unique = unique.enumerated().filter { !droppedSet.contains($0.offset) }.map(\.element)
            renamed = unique.indices.filter { !unique[$0].renamedFrom.isEmpty }
        }
        let problemsBefore = diagnostics.count
        var renamedBy: [String: Int] = [:]
        renamedBy.reserveCapacity(renamed.count)
        // By index, reading fields in place, as above.
        for index in renamed {
            for old in unique[index].renamedFrom {
                if seen[old] != nil {
                    diagnostics.append(.error(
                        at: unique[index].location, "\(unique[index].key) is renamed from \(old), which is still defined",
                        hint: "remove \(old) from renamed_from, or delete its definition"))
                } else if let other = renamedBy[old] {
                    diagnostics.append(.error(
                        at: unique[index].location,
                        "both \(unique[other].key) and \(unique[index].key) are renamed from \(old)",
                        hint: "an old key can carry its overrides to one new key only"))
                } else {
                    renamedBy[old] = index
                }
            }
        }
        let fine = dropped.isEmpty && diagnostics.count == problemsBefore
        return (unique, diagnostics, fine ? (seen, renamedBy) : nil)
    }
}
