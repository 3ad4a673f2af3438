import Foundation
@testable import Switchboard
import Locking
import SwitchboardTestSupport
import Testing

/// A snapshot in two parts: a runtime write shares the compiled definitions and every untouched chunk, and the
/// incremental path resolves exactly as a full rebuild does.
@Suite struct SnapshotPublicationTests {
    static let definitions = """
        flags:
          gate:
            type: bool
            default: false
          gated:
            type: string
            default: closed
            rules:
              - name: through the gate
                when: [{ attribute: plan, equals: pro }]
                serve: open
            requires: { flag: gate, value: true }
          plain:
            type: int
            default: 1
          renamed:
            type: int
            default: 5
            renamed_from: [old.name]
        """

    @Test func aRuntimeWriteKeepsTheCompiledDefinitions() throws {
        let project = makeProject(definitions: Self.definitions)
        let board = try openBoard(project.flags)
        let before = board.snapshot
        try board.set("plain", to: 2, actor: "test")
        let after = board.snapshot
        #expect(after.definitions === before.definitions)
        #expect(after.revision == before.revision + 1)
        #expect(after.entry("plain")?.contextFree.value == .int(2))
        // Entries the write did not touch are the same objects.
        #expect(after.entry("renamed") === before.entry("renamed"))
        board.reload()
        #expect(board.snapshot.definitions !== before.definitions)
    }

    @Test func theIncrementalPathResolvesAsAFullRebuild() throws {
        let project = makeProject(definitions: Self.definitions)
        let board = try openBoard(project.flags)
        let writes: [(String, Value?)] = [("gate", true), ("plain", 9), ("old.name", 7), ("renamed", 8),
                                          ("renamed", nil), ("gate", nil), ("orphan.key", 1)]
        for (key, value) in writes {
            if let value {
                if board.registry[key] != nil {
                    try board.set(key, to: value, actor: "test")
                } else {
                    _ = try board.store.apply([OverrideChange(key: key, value: value)], by: .unverified("test"),
                                              condition: nil)
                    board.refreshRuntime()
                }
            } else {
                try board.reset(key, actor: "test")
            }
            let incremental = board.snapshot
            let full = Snapshot(definitions: incremental.definitions, fileLayer: incremental.fileLayer,
                                environmentLayer: incremental.environmentLayer, runtime: try board.store.read(),
                                revision: 0)
            for position in full.entries.indices {
                let (a, b) = (incremental.entries[position], full.entries[position])
                #expect(a.contextFree == b.contextFree, "\(a.definition.key) after \(key)")
                #expect(a.overrides == b.overrides, "\(a.definition.key) after \(key)")
                #expect(a.isDynamic == b.isDynamic)
            }
            #expect(incremental.orphans == full.orphans, "orphans after \(key)")
            #expect(incremental.diagnostics == full.diagnostics, "diagnostics after \(key)")
        }
    }

    @Test func aPrerequisiteWriteChangesTheDependentsValue() throws {
        let project = makeProject(definitions: Self.definitions)
        let board = try openBoard(project.flags)
        let pro = EvaluationContext(targetingKey: "u", attributes: ["plan": "pro"])
        #expect(board.string("gated", default: "?", context: pro) == "closed")
        try board.set("gate", to: true, actor: "test")
        #expect(board.string("gated", default: "?", context: pro) == "open")
    }

    @Test func anEditOfOnlyTargetingIsAChange() throws {
        let project = makeProject(definitions: Self.definitions)
        let board = try openBoard(project.flags)
        let seen = Locked<[ValueChange]>([])
        let subscription = board.subscribe { event in
            if case .published(let publication) = event { seen.withLock { $0 += publication.changes } }
        }
        project.write("flags/app.yaml",
                        Self.definitions.replacingOccurrences(of: "equals: pro", with: "equals: team"))
        let report = board.reload()
        #expect(!report.hasErrors)
        subscription.cancel()
        // Publications are delivered before the reload returns.
        let changes = seen.withLock { $0 }
        #expect(changes.map(\.key) == ["gated"])
        let change = try #require(changes.first)
        // The value for the empty context did not change; what the targeting serves did.
        #expect(change.old == change.new)
    }

    @Test func anUnchangedReloadIsNoChange() throws {
        let project = makeProject(definitions: Self.definitions)
        let board = try openBoard(project.flags)
        let seen = Locked<[ValueChange]>([])
        let subscription = board.subscribe { event in
            if case .published(let publication) = event { seen.withLock { $0 += publication.changes } }
        }
        board.reload()
        subscription.cancel()
        #expect(seen.withLock { $0 }.isEmpty)
    }
}
