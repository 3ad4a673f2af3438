import Dispatch
import Testing
import SwitchboardTestSupport

@testable import Switchboard

/// The join takes files in index order however they arrive: from one thread out of order, from many at once, with
/// unreadable files among them. Keys are checked file by file; a key that is not simple (flagd's camelCase, a `-`)
/// turns the variable checks on from its file, with the result the whole set checked at once gives.
struct FileJoinerTests {
    static let today = Day("2026-11-22")!

    /// Five files: a key defined twice across files, a reserved key, a flagd file with keys whose variables clash
    /// with a YAML key's, and `renamed_from` naming a live key.
    static let sources: [(path: String, bytes: [UInt8])] = [
        ("a.yaml", "namespace: app\nflags:\n  on: { type: bool, default: false }\n  limit: { type: int, default: 3 }\n"),
        ("b.yaml", "flags:\n  env: { type: bool, default: false }\n  app.on: { type: bool, default: true }\n"),
        ("c.flagd.json", #"{"flags": {"app__limit": {"state": "ENABLED", "variants": {"on": true}, "defaultVariant": "on"}}}"#),
        ("d.yaml", "namespace: app\nflags:\n  renamed: { type: bool, default: false, renamed_from: [app.on] }\n"),
        ("e.yaml", "namespace: web\nflags:\n  dark_mode: { type: bool, default: false }\n"),
    ].map { ($0.0, Array($0.1.utf8)) }

    static func summary(_ report: LoadReport) -> [String] {
        report.registry.files + report.registry.definitions.map { "\($0.key) \($0.location)" }
            + report.diagnostics.map(\.description)
    }

    /// The files joined by delivering them in `order`, on this thread; `nil` results for the `unreadable` ones.
    static func joined(order: [Int], unreadable: Set<Int> = []) -> LoadReport {
        let joiner = FileJoiner(totalBytes: sources.reduce(0) { $0 + $1.bytes.count })
        for index in order {
            let result = unreadable.contains(index)
                ? nil : DefinitionLoader.parse(sources[index].bytes, path: sources[index].path, today: today)
            joiner.deliver(index, path: sources[index].path, bytes: sources[index].bytes.count, result)
        }
        return joiner.finish(count: sources.count, now: 0)
    }

    @Test("every order of delivery joins the files in index order")
    func anyOrderOfDelivery() {
        let inOrder = Self.summary(Self.joined(order: Array(0..<5)))
        #expect(inOrder.contains { $0.contains("app.on is already defined at a.yaml:3:3") })
        #expect(inOrder.contains { $0.contains("env maps to SWITCHBOARD_ENV") })
        #expect(inOrder.contains { $0.contains("map to the same environment variable SWITCHBOARD_APP__LIMIT") })
        #expect(inOrder.contains { $0.contains("app.renamed is renamed from app.on, which is still defined") })
        for order in [[4, 3, 2, 1, 0], [2, 0, 4, 1, 3], [1, 0, 3, 2, 4], [0, 4, 1, 3, 2]] {
            #expect(Self.summary(Self.joined(order: order)) == inOrder, "\(order)")
        }
        let withUnreadable = Self.summary(Self.joined(order: [3, 1, 0, 4, 2], unreadable: [1, 3]))
        #expect(withUnreadable == Self.summary(Self.joined(order: Array(0..<5), unreadable: [1, 3])))
        #expect(withUnreadable.filter { $0.contains("cannot read") }.count == 2)
    }

    @Test("many threads delivering at once give the same registry and diagnostics")
    func threadsDeliveringAtOnce() {
        let expected = Self.summary(DefinitionLoader.load(sources: Self.sources, today: Self.today, now: 0, workers: 1))
        for _ in 0..<50 {
            let joiner = FileJoiner(totalBytes: Self.sources.reduce(0) { $0 + $1.bytes.count })
            DispatchQueue.concurrentPerform(iterations: Self.sources.count) { index in
                let source = Self.sources[Self.sources.count - 1 - index]
                joiner.deliver(Self.sources.count - 1 - index, path: source.path, bytes: source.bytes.count,
                               DefinitionLoader.parse(source.bytes, path: source.path, today: Self.today))
            }
            #expect(Self.summary(joiner.finish(count: Self.sources.count, now: 0)) == expected)
        }
    }

    // Keys checked file by file, the variables from the first file with a key that is not simple, give what one
    // check of every key, variables and all, gives: with that key in the first, a middle or the last file.
    @Test(arguments: [0, 2, 4])
    func aKeyThatIsNotSimpleInAnyFile(position: Int) {
        var sources = Self.sources.filter { !$0.path.hasSuffix(".json") }
        let complex = ("x.yaml", Array("flags:\n  web.dark-mode: { type: bool, default: true }\n  app.limit: { type: int, default: 1 }\n".utf8))
        sources.insert(complex, at: position)
        let report = DefinitionLoader.load(sources: sources, today: Self.today, now: 0, workers: 1)
        // The whole set at once, variables checked from the first key.
        var definitions: [Definition] = []
        var reserved: [Int] = []
        var renamed: [Int] = []
        for source in sources {
            var result = DefinitionLoader.parse(source.bytes, path: source.path, today: Self.today)
            reserved += result.reservedKeys.map { definitions.count + $0 }
            renamed += result.renamedKeys.map { definitions.count + $0 }
            definitions += result.takeDefinitions()
        }
        var check = KeyCheck()
        check.checkVariables()
        check.check(definitions, from: 0, reservedKeys: reserved)
        let (kept, diagnostics, _) = check.finish(definitions, renamed: renamed)
        #expect(report.registry.keys == kept.map(\.key))
        let keyDiagnostics = report.diagnostics.map(\.description).filter {
            $0.contains("already defined") || $0.contains("environment variable") || $0.contains("renamed from")
                || $0.contains("Switchboard's own variables")
        }
        #expect(keyDiagnostics == Diagnostic.sorted(diagnostics).map(\.description))
        #expect(keyDiagnostics.contains { $0.contains("map to the same environment variable SWITCHBOARD_WEB__DARK_MODE") })
    }

    // The join hands the registry where its keys, renamed keys and schedules are, found while the files were read;
    // they are what a registry finds by reading every definition, with some of each in several files.
    @Test func theRegistrysPositionsAreThoseItWouldFindItself() throws {
        let sources: [(path: String, bytes: [UInt8])] = [
            ("a.yaml", "namespace: app\nflags:\n  on: { type: bool, default: false, renamed_from: [app.old_on] }\n"
                + "  limit:\n    type: int\n    default: 3\n    schedule:\n"
                + "      - { at: 2026-12-01T00:00:00Z, serve: 4 }\n"),
            ("b.flagd.json", #"{"flags": {"flagd_one": {"state": "ENABLED", "variants": {"on": true}, "#
                + #""defaultVariant": "on"}}}"#),
            ("c.yaml", "namespace: web\nflags:\n  dark_mode: { type: bool, default: false }\n"
                + "  banner:\n    type: bool\n    default: false\n"
                + "    renamed_from: [web.old_banner, web.older_banner]\n"
                + "    schedule:\n      - { at: 2026-12-02T00:00:00Z, serve: true }\n"
                + "  plan:\n    type: string\n    default: free\n    rules:\n"
                + "      - { when: [{ attribute: country, equals: DE }], serve: pro }\n"),
        ].map { ($0.0, Array($0.1.utf8)) }
        let report = DefinitionLoader.load(sources: sources, today: Self.today, now: 0, workers: 2)
        #expect(!report.hasErrors, "\(report.diagnostics)")
        let loaded = report.registry
        let read = Registry(definitions: loaded.definitions, files: loaded.files)
        #expect(loaded.count == 6)
        #expect(loaded.scheduled == read.scheduled)
        #expect(loaded.scheduled.map { loaded.definitions[$0].key } == ["app.limit", "web.banner"])
        for key in loaded.keys {
            #expect(loaded.position(of: key) == read.position(of: key))
        }
        for old in ["app.old_on", "web.old_banner", "web.older_banner"] {
            #expect(loaded.definition(renamedFrom: old)?.key == read.definition(renamedFrom: old)?.key)
            #expect(loaded.definition(renamedFrom: old) != nil)
        }
        #expect(loaded.definitions.allSatisfy { $0.pending == nil }, "every targeting compiled")
        #expect(loaded["web.plan"]?.targeting != nil)
    }
}
