import Testing
@testable import Switchboard

/// Paths split and joined as text, without Foundation's path methods (which trap on some short relative paths).
struct FilePathsTests {
    @Test(arguments: [
        ("y", ".", "y"), ("./y", ".", "y"), ("a/b.json", "a", "b.json"), ("a//b", "a", "b"), ("/b", "/", "b"),
        ("/", "/", "/"), ("a/", ".", "a"), ("", ".", ""), (".", ".", "."), ("/x/y/", "/x", "y"),
    ])
    func splits(path: String, directory: String, last: String) {
        #expect(FilePaths.directory(of: path) == directory)
        #expect(FilePaths.lastComponent(of: path) == last)
    }

    @Test(arguments: [
        ("flags", "."), (".", ".."), ("./flags/", "."), ("app/flags", "app"), ("/srv/app/flags", "/srv/app"),
        ("/", "/"), ("..", "../.."), ("../flags", ".."), ("x", "."),
    ])
    func parent(path: String, parent: String) {
        #expect(FilePaths.parent(of: path) == parent)
    }

    @Test func joinsAndDropsExtensions() {
        #expect(FilePaths.join(".", "audit.jsonl") == "./audit.jsonl")
        #expect(FilePaths.join("/", "a") == "/a")
        #expect(FilePaths.join("a/", "b") == "a/b")
        #expect(FilePaths.join("", "b") == "b")
        #expect(FilePaths.deletingExtension("overrides.json") == "overrides")
        #expect(FilePaths.deletingExtension(".env") == ".env")
        #expect(FilePaths.deletingExtension("y") == "y")
    }

    @Test(arguments: [
        ("y", "./y.audit.jsonl"), ("./y", "./y.audit.jsonl"),
        (".switchboard/overrides.json", ".switchboard/audit.jsonl"), ("/s/prod.json", "/s/prod.audit.jsonl"),
    ])
    func auditLogBesideTheStateFile(state: String, audit: String) {
        #expect(FileStore.auditPath(forState: state) == audit)
    }

    @Test(arguments: [("flags", ".switchboard/overrides.json"), ("x", ".switchboard/overrides.json"),
                      (".", "../.switchboard/overrides.json"), ("/srv/flags", "/srv/.switchboard/overrides.json")])
    func defaultStoreBesideTheDefinitions(flags: String, store: String) {
        #expect(FileStore.defaultPath(flagsDirectory: flags) == store)
    }
}
