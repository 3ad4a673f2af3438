import Testing
import SwitchboardTestSupport

@testable import Switchboard

/// A one-shot command starts loading its definitions before its command line is parsed (`DefinitionPrefetch`):
/// the load that then asks for the same directory and day, at the clock's time, gets that result, once. One
/// prefetch waits at a time, so these tests run one after the other.
@Suite(.serialized)
struct DefinitionPrefetchTests {
    static func project() -> TemporaryDirectory {
        let folder = TemporaryDirectory(prefix: "switchboard-prefetch")
        folder.write("flags/shop.yaml", """
            namespace: shop
            flags:
              checkout: { type: bool, default: true }
              limit: { type: int, default: 3, min: 5 }
            """)
        return folder
    }

    static let today = Day("2026-11-27")!

    /// A project with a prefetch of its definitions started.
    static func started() -> (folder: TemporaryDirectory, directory: String) {
        let folder = project()
        DefinitionPrefetch.start(directory: folder.file("flags"), today: today)
        return (folder, folder.file("flags"))
    }

    static func summary(_ report: LoadReport) -> [String] {
        report.registry.keys + report.diagnostics.map(\.description)
    }

    @Test("the load of the prefetched directory gets the prefetched result, once")
    func answersOneLoad() throws {
        let (folder, directory) = Self.started()
        let today = Self.today
        let prefetched = try #require(DefinitionPrefetch.take(directory: directory, today: today, now: nil))
        let read = DefinitionLoader.read(directory: directory, today: today, now: nil)
        #expect(Self.summary(prefetched) == Self.summary(read))
        #expect(prefetched.registry.keys == ["shop.checkout"] && prefetched.hasErrors)
        #expect(DefinitionPrefetch.take(directory: directory, today: today, now: nil) == nil, "answered once")

        DefinitionPrefetch.start(directory: directory, today: today)
        let loaded = DefinitionLoader.load(directory: directory, today: today)
        #expect(Self.summary(loaded) == Self.summary(prefetched))
        #expect(DefinitionPrefetch.take(directory: directory, today: today, now: nil) == nil, "the load took it")
        withExtendedLifetime(folder) {}
    }

    @Test("a load of another directory, day or time reads for itself and leaves the prefetch")
    func othersLeaveIt() {
        let (folder, directory) = Self.started()
        let today = Self.today
        #expect(DefinitionPrefetch.take(directory: folder.file("other"), today: today, now: nil) == nil)
        #expect(DefinitionPrefetch.take(directory: directory, today: Day("2026-11-28")!, now: nil) == nil)
        #expect(DefinitionPrefetch.take(directory: directory, today: today, now: 1_800_000_000) == nil)
        #expect(DefinitionLoader.load(directory: directory, today: today, now: 1_800_000_000).registry.count == 1)
        #expect(DefinitionPrefetch.take(directory: directory, today: today, now: nil) != nil)
    }
}
