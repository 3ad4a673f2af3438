import CLibYAML
import Dispatch
import Locking

extension YAMLParser {
    /// Which top-level mappings to split into independent entries, and who receives them.
    public struct Splitting {
        /// Called on the parsing thread when the value of a top-level key turns out to be a mapping, with the
        /// key and the top-level pairs finished before it: whether to split it.
        public var shouldSplit: (_ key: String, _ earlierPairs: [Node.Pair]) -> Bool
        /// Receives each entry of a split mapping, on one of two threads (`worker` is 0 or 1); `position` numbers
        /// the entries of all split mappings in source order, so the receiver can put them back in order.
        public var receive: @Sendable (_ worker: Int, _ position: Int, _ key: String, _ entry: Node.Pair) -> Void
        /// Offered each entry (but a duplicate key's) as its events before any node is built, on the thread that
        /// would build it: `true` when it took the entry from them, and then `receive` does not get it. An entry
        /// with a mistake YAML reports (a key written twice in it, a tag) must be left to `receive`: only building it
        /// reports the mistake.
        public var read: (@Sendable (_ worker: Int, _ position: Int, _ key: String, _ entry: SplitEntry) -> Bool)?

        /// Creates the hooks.
        public init(
            shouldSplit: @escaping (_ key: String, _ earlierPairs: [Node.Pair]) -> Bool,
            read: (@Sendable (_ worker: Int, _ position: Int, _ key: String, _ entry: SplitEntry) -> Bool)? = nil,
            receive: @escaping @Sendable (_ worker: Int, _ position: Int, _ key: String, _ entry: Node.Pair) -> Void
        ) {
            self.shouldSplit = shouldSplit
            self.read = read
            self.receive = receive
        }
    }

    /// Parses a large document on two cores: libyaml scans on the calling thread, and the entries of the
    /// top-level mappings `splitting` chooses (a definitions file's `flags:`) are built as nodes and handed to
    /// `splitting.receive` on a second thread, and on this one once the scan is done. In the returned document
    /// those mappings are empty.
    ///
    /// The result is exactly what ``parse(_:file:limits:)`` gives, problem for problem, or `nil` when the
    /// document needs to be read in one piece: an anchor or alias, a tag or a non-scalar key on a split mapping,
    /// or any error that stops parsing. On `nil`, drop whatever `receive` got and call ``parse(_:file:limits:)``.
    ///
    /// With `threads` 1 the entries are built on the calling thread (worker 0), a batch at a time as the scan goes:
    /// for a small document, where a second thread costs more than it saves but `splitting.read` can still spare
    /// the nodes.
    public static func parse(
        _ bytes: [UInt8], file: String, limits: Limits = Limits(), splitting: Splitting, threads: Int = 2
    ) -> YAMLDocument? {
        if checkEncoding(bytes, file: file) != nil { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            var builder = TreeBuilder(file: file, limits: limits)
            return builder.runSplitting(buffer, splitting, threads: threads)
        }
    }
}

/// One entry of a split mapping (its key, then its value) as libyaml's events, for ``YAMLParser/Splitting/read``:
/// what a reader that needs no tree can take instead of nodes. Valid only during the call it is passed to.
///
/// An entry holds no anchor and no alias (those are read in one piece); a collection's end follows its items.
public struct SplitEntry {
    /// What an event is.
    public enum Kind: Sendable {
        /// A scalar.
        case scalar
        /// The start of a sequence, whose items follow until its ``sequenceEnd``.
        case sequenceStart
        /// The end of a sequence.
        case sequenceEnd
        /// The start of a mapping, whose keys and values follow until its ``mappingEnd``.
        case mappingStart
        /// The end of a mapping.
        case mappingEnd
    }

    let events: UnsafeBufferPointer<SplitBatch.Event>
    let bytes: UnsafeBufferPointer<UInt8>
    /// The file's name, for locations.
    let file: String

    /// The number of events.
    public var count: Int { events.count }

    /// What the event at `index` is.
    public func kind(at index: Int) -> Kind {
        switch yaml_event_type_t(rawValue: UInt32(events[index].type)) {
        case YAML_SCALAR_EVENT: .scalar
        case YAML_SEQUENCE_START_EVENT: .sequenceStart
        case YAML_SEQUENCE_END_EVENT: .sequenceEnd
        case YAML_MAPPING_START_EVENT: .mappingStart
        default: .mappingEnd
        }
    }

    /// Whether the event at `index` (a scalar or a collection's start) has an explicit tag.
    public func hasTag(at index: Int) -> Bool { events[index].tag >= 0 }

    /// Where the node the event at `index` starts is written.
    public func location(at index: Int) -> SourceLocation {
        SourceLocation(file: file, line: Int(events[index].line) + 1, column: Int(events[index].column) + 1)
    }

    /// The text of the scalar at `index`, as ``Scalar/text`` has it.
    public func text(at index: Int) -> String {
        String(decoding: scalarBytes(at: index), as: UTF8.self)
    }

    /// The scalar at `index`, typed as the tree has it when it has no tag.
    public func scalar(at index: Int) -> Scalar {
        let value = scalarBytes(at: index)
        let style = Scalar.Style(yaml_scalar_style_t(rawValue: UInt32(events[index].style)))
        let typed: Scalar.Value = style == .plain ? .resolve(plainBytes: value) : .string
        return Scalar(text: String(decoding: value, as: UTF8.self), style: style, value: typed)
    }

    /// The index just past the node that starts at `index`: `index + 1` for a scalar, past its end for a collection.
    public func end(ofNodeAt index: Int) -> Int {
        var depth = 0
        var position = index
        repeat {
            switch kind(at: position) {
            case .sequenceStart, .mappingStart: depth += 1
            case .sequenceEnd, .mappingEnd: depth -= 1
            case .scalar: break
            }
            position += 1
        } while depth > 0 && position < count
        return position
    }

    /// The UTF-8 bytes of the scalar at `index`, as ``text(at:)`` decodes them, valid as long as the entry is:
    /// for a reader that matches them without making a string.
    public func scalarBytes(at index: Int) -> UnsafeBufferPointer<UInt8> {
        let event = events[index]
        guard event.length > 0, let base = bytes.baseAddress else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: base + Int(event.value), count: Int(event.length))
    }
}

/// A batch of entries of a split mapping, in source order. The scanning thread deletes libyaml's events as it
/// goes (as a plain scan does) and keeps copies whose scalar and tag bytes live in the batch's own ``bytes``, so
/// the thread that builds the batch frees nothing the scanning thread allocated but the batch itself: two
/// threads freeing each other's memory would contend for the allocator's lock.
struct SplitBatch: Sendable {
    /// What ``TreeBuilder/handle(_:)`` reads of an event, in 24 bytes instead of libyaml's struct: the copies are
    /// written on the scanning thread, which is the one to keep fast.
    struct Event {
        var type: UInt8
        var style: UInt8
        var line: Int32
        var column: Int32
        /// Where the scalar's value starts in ``bytes``.
        var value: Int32 = 0
        var length: Int32 = 0
        /// Where the tag (NUL-terminated) starts in ``bytes``, or -1.
        var tag: Int32 = -1
    }

    /// One entry: its events, from the key to the end of the value.
    struct Entry {
        var position: Int
        var parent: String
        /// A duplicate key: the entry is built (a problem in it stops parsing, as it would in one piece) but dropped.
        var isDuplicate: Bool
        var events: Range<Int>
    }

    var events: [Event] = []
    var entries: [Entry] = []
    var bytes: [UInt8] = []

    /// Copies what matters of an event, taking its scalar value and tag into ``bytes``; false when a mark is
    /// past what the copy holds.
    mutating func append(_ event: yaml_event_t) -> Bool {
        guard event.start_mark.line < Int32.max, event.start_mark.column < Int32.max, bytes.count < Int32.max / 2
        else { return false }
        var copy = Event(type: UInt8(truncatingIfNeeded: event.type.rawValue), style: 0,
                         line: Int32(event.start_mark.line), column: Int32(event.start_mark.column))
        var tag: UnsafeMutablePointer<UInt8>?
        switch event.type {
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            guard data.length < Int32.max / 2 else { return false }
            copy.style = UInt8(truncatingIfNeeded: data.style.rawValue)
            copy.value = Int32(bytes.count)
            copy.length = Int32(data.length)
            bytes.append(contentsOf: UnsafeBufferPointer(start: data.value, count: data.length))
            tag = data.tag
        case YAML_SEQUENCE_START_EVENT:
            tag = event.data.sequence_start.tag
        case YAML_MAPPING_START_EVENT:
            tag = event.data.mapping_start.tag
        default:
            break
        }
        if let tag {
            copy.tag = Int32(bytes.count)
            bytes.append(contentsOf: UnsafeBufferPointer(start: tag, count: Self.length(of: tag) + 1))
        }
        events.append(copy)
        return true
    }

    /// Empties the batch, keeping its storage for the next one.
    mutating func removeAll() {
        events.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
    }

    /// The length of a NUL-terminated string.
    private static func length(of text: UnsafeMutablePointer<UInt8>) -> Int {
        var count = 0
        while text[count] != 0 { count += 1 }
        return count
    }

    /// The event at `index` as libyaml's struct, pointing into `base` (``bytes``), for ``TreeBuilder/handle(_:)``.
    func event(_ index: Int, base: UnsafeMutablePointer<UInt8>) -> yaml_event_t {
        let copy = events[index]
        var event = yaml_event_t()
        event.type = yaml_event_type_t(rawValue: UInt32(copy.type))
        event.start_mark.line = Int(copy.line)
        event.start_mark.column = Int(copy.column)
        let tag = copy.tag >= 0 ? base + Int(copy.tag) : nil
        switch event.type {
        case YAML_SCALAR_EVENT:
            event.data.scalar.value = base + Int(copy.value)
            event.data.scalar.length = Int(copy.length)
            event.data.scalar.style = yaml_scalar_style_t(rawValue: UInt32(copy.style))
            event.data.scalar.tag = tag
        case YAML_SEQUENCE_START_EVENT:
            event.data.sequence_start.tag = tag
        case YAML_MAPPING_START_EVENT:
            event.data.mapping_start.tag = tag
        default:
            break
        }
        return event
    }
}

/// The entries waiting to be built, and what building them found.
private final class SplitPool: Sendable {
    private struct State {
        var queue: [SplitBatch?] = []
        var head = 0
        var closed = false
        var failed = false
        /// Whether the second worker has begun, or was given up on because all was built without it.
        var workerStarted = false
        var workerAbandoned = false
        var problems: [YAMLProblem] = []
    }

    private let state = Locked(State())
    /// One signal per batch sent, plus one per consumer when the pool closes.
    private let available = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let file: String
    private let limits: YAMLParser.Limits
    private let receive: @Sendable (Int, Int, String, Node.Pair) -> Void
    private let read: (@Sendable (Int, Int, String, SplitEntry) -> Bool)?

    init(file: String, limits: YAMLParser.Limits, splitting: YAMLParser.Splitting) {
        self.file = file
        self.limits = limits
        self.receive = splitting.receive
        self.read = splitting.read
    }

    /// Starts the second worker.
    func start() {
        DispatchQueue.global().async { [self] in
            let starts = state.withLock { state in
                if !state.workerAbandoned { state.workerStarted = true }
                return state.workerStarted
            }
            if starts { drain(worker: 1) }
            done.signal()
        }
    }

    /// Entries go in batches: a signal per entry would cost more than building most entries, and a worker that
    /// runs out of work sleeps and is woken for each batch (fewer, larger batches measured steadier).
    static let batchSize = 128

    func send(_ batch: SplitBatch) {
        guard !batch.entries.isEmpty else { return }
        state.withLock { $0.queue.append(batch) }
        available.signal()
    }

    /// Stops the building: the entries left are only deleted.
    func fail() {
        state.withLock { $0.failed = true }
    }

    var failed: Bool { state.withLock { $0.failed } }

    /// Closes the pool, helps build what is left, and waits for the second worker.
    func finish() -> (failed: Bool, problems: [YAMLProblem]) {
        state.withLock { $0.closed = true }
        available.signal()
        available.signal()
        drain(worker: 0)
        // If the second worker never got a thread (every thread busy), everything is built already: do not wait.
        let waits = state.withLock { state in
            if !state.workerStarted { state.workerAbandoned = true }
            return state.workerStarted
        }
        if waits { done.wait() }
        return state.withLock { ($0.failed, $0.problems) }
    }

    private func next() -> SplitBatch? {
        available.wait()
        return state.withLock { state in
            guard state.head < state.queue.count, let batch = state.queue[state.head] else { return nil }
            state.queue[state.head] = nil
            state.head += 1
            return batch
        }
    }

    /// A builder for one worker, emptied for each entry so its storage is reused. Its own copy of the file name:
    /// every node holds one, and two threads counting references to the same string would contend.
    func makeBuilder() -> TreeBuilder {
        TreeBuilder(file: String(decoding: Array(file.utf8), as: UTF8.self), limits: limits)
    }

    /// Builds batches until the pool is closed and empty.
    private func drain(worker: Int) {
        var builder = makeBuilder()
        while let batch = next() { build(batch, worker: worker, builder: &builder) }
    }

    /// Builds (or offers to `read`) each entry of a batch, in order, unless the pool failed.
    func build(_ batch: SplitBatch, worker: Int, builder: inout TreeBuilder) {
        batch.bytes.withUnsafeBufferPointer { bytes in
            // libyaml's struct wants mutable pointers; ``TreeBuilder/handle(_:)`` only reads through them. A
            // batch with no bytes has no base address, and then no event points into it.
            let base = bytes.baseAddress.map(UnsafeMutablePointer.init(mutating:))
                ?? UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
            batch.events.withUnsafeBufferPointer { events in
                for entry in batch.entries where !failed {
                    if !entry.isDuplicate, let read,
                       read(worker, entry.position, entry.parent, SplitEntry(
                           events: UnsafeBufferPointer(rebasing: events[entry.events]), bytes: bytes,
                           file: builder.file))
                    {
                        continue
                    }
                    build(entry, of: batch, base: base, worker: worker, builder: &builder)
                }
            }
            if bytes.baseAddress == nil { base.deallocate() }
        }
    }

    private func build(
        _ entry: SplitBatch.Entry, of batch: SplitBatch, base: UnsafeMutablePointer<UInt8>, worker: Int,
        builder: inout TreeBuilder
    ) {
        builder.reset()
        var key: Node?
        for index in entry.events {
            var event = batch.event(index, base: base)
            if builder.handle(&event) != nil {
                fail()
                return
            }
            if index == entry.events.lowerBound { key = builder.root.take() }
        }
        if !builder.problems.isEmpty {
            let problems = builder.problems
            state.withLock { $0.problems += problems }
        }
        guard !entry.isDuplicate, let key, let value = builder.root else { return }
        receive(worker, entry.position, entry.parent, Node.Pair(key: key, value: value))
    }
}

extension TreeBuilder {
    /// ``run(_:)`` with the entries of split mappings built on two threads; `nil` to fall back to ``run(_:)``.
    mutating func runSplitting(_ buffer: UnsafeBufferPointer<UInt8>, _ splitting: YAMLParser.Splitting, threads: Int)
        -> YAMLDocument?
    {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)

        let pool = SplitPool(file: file, limits: limits, splitting: splitting)
        // With one thread, this one builds each batch once it is full, and reuses its storage for the next.
        var inlineBuilder = threads > 1 ? nil : pool.makeBuilder()
        if threads > 1 { pool.start() }
        // The entry being collected (from `entryStart` in the batch), and the sizes of its open collections (to
        // count nodes as `add` does).
        var entryStart = 0
        var entryIsDuplicate = false
        var collecting = false
        var sizes: [Int] = []
        var position = 0
        var batch = SplitBatch()
        func dispatch() {
            if inlineBuilder != nil {
                pool.build(batch, worker: 0, builder: &inlineBuilder!)
                batch.removeAll()
            } else {
                // The next batch is about as large: room for it at once, rather than growing it a dozen times.
                let (events, bytes) = (batch.events.count, batch.bytes.count)
                pool.send(batch)
                batch = SplitBatch()
                batch.events.reserveCapacity(events)
                batch.bytes.reserveCapacity(bytes)
            }
        }
        func fail(_ event: inout yaml_event_t) -> YAMLDocument? {
            yaml_event_delete(&event)
            pool.fail()
            _ = pool.finish()
            return nil
        }

        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else { return fail(&event) }
            // Tested without taking the key out: a copy of the string for every event counted its references.
            if stack.count == 2, stack[1].detachedUnder != nil {
                if !collecting && event.type != YAML_MAPPING_END_EVENT {
                    // A key of the split mapping.
                    let data = event.data.scalar
                    guard event.type == YAML_SCALAR_EVENT, data.anchor == nil, data.tag == nil else {
                        return fail(&event)
                    }
                    let bytes = UnsafeBufferPointer(start: data.value, count: data.length)
                    let text = String(decoding: bytes, as: UTF8.self)
                    let value = data.style == YAML_PLAIN_SCALAR_STYLE ? Scalar.Value.resolve(plainBytes: bytes) : .string
                    let at = location(event.start_mark)
                    let identity = DetachedKey(text: text, value: value)
                    // One lookup for the usual new key; a duplicate puts the first one's location back.
                    if let first = stack[1].detachedKeys.updateValue(at, forKey: identity) {
                        stack[1].detachedKeys[identity] = first
                        problems.append(YAMLProblem(
                            location: at,
                            message: "duplicate key '\(text)'; first defined at \(first.line):\(first.column)",
                            hint: "remove one of the two; YAML keeps neither reliably",
                            isFatal: false
                        ))
                        entryIsDuplicate = true
                    } else {
                        entryIsDuplicate = false
                    }
                    if !count(size: 1) { return fail(&event) }
                    collecting = true
                    entryStart = batch.events.count
                    guard batch.append(event) else { return fail(&event) }
                    yaml_event_delete(&event)
                    continue
                }
                if collecting {
                    switch event.type {
                    case YAML_SCALAR_EVENT:
                        guard event.data.scalar.anchor == nil else { return fail(&event) }
                        if sizes.isEmpty {
                            if !count(size: 1) { return fail(&event) }
                        } else {
                            sizes[sizes.count - 1] += 1
                            totalNodes += 1
                        }
                    case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                        let anchor = event.type == YAML_MAPPING_START_EVENT ? event.data.mapping_start.anchor
                            : event.data.sequence_start.anchor
                        guard anchor == nil, stack.count + sizes.count < limits.maxDepth else { return fail(&event) }
                        sizes.append(1)
                    case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                        let size = sizes.removeLast()
                        if sizes.isEmpty {
                            if !count(size: size) { return fail(&event) }
                        } else {
                            sizes[sizes.count - 1] += size
                            totalNodes += size
                        }
                    default:
                        // An alias: its expansion is counted and resolved in one piece.
                        return fail(&event)
                    }
                    if totalNodes > limits.maxNodes { return fail(&event) }
                    guard batch.append(event) else { return fail(&event) }
                    yaml_event_delete(&event)
                    if sizes.isEmpty {
                        batch.entries.append(SplitBatch.Entry(
                            position: position, parent: stack[1].detachedUnder!, isDuplicate: entryIsDuplicate,
                            events: entryStart..<batch.events.count))
                        position += 1
                        collecting = false
                        if batch.entries.count == SplitPool.batchSize {
                            dispatch()
                            if pool.failed { return fail(&event) }
                        }
                    }
                    continue
                }
            }
            if event.type == YAML_STREAM_END_EVENT {
                yaml_event_delete(&event)
                break
            }
            let splitKey = event.type == YAML_MAPPING_START_EVENT && stack.count == 1 && stack[0].isMapping
                ? stack[0].pendingKey?.scalar?.text : nil
            // Any problem that stops parsing is left to the one-piece parse, which reports it exactly.
            if handle(&event) != nil || pool.failed { return fail(&event) }
            yaml_event_delete(&event)
            // A key written twice at the top level keeps its first mapping; the later one is dropped, so it is
            // left whole (and dropped as usual) rather than split.
            if let splitKey, stack.count == 2, stack[1].tag == nil, stack[1].anchor == nil {
                let earlier = earlierRootPairs
                if !earlier.contains(where: { $0.key.scalar?.text == splitKey }),
                   splitting.shouldSplit(splitKey, earlier)
                {
                    stack[1].detachedUnder = splitKey
                    // Room for an entry per 128 bytes of the file (a definition takes more): growing the table
                    // hashed every key again each time.
                    stack[1].detachedKeys.reserveCapacity(Swift.min(buffer.count / 128, 1 << 16))
                }
            }
        }
        dispatch()
        let (failed, entryProblems) = pool.finish()
        if failed { return nil }
        problems += entryProblems
        return finish(failed: false)
    }

    /// Counts a finished value of the split mapping as ``add(_:size:anchor:)`` would; false past the node budget.
    private mutating func count(size: Int) -> Bool {
        totalNodes += size
        stack[1].size += size
        return totalNodes <= limits.maxNodes
    }
}
