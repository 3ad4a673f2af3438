import Foundation
import Testing
import SwitchboardTestSupport

@testable import Switchboard

/// Which files of a folder are definitions: `*.yaml`, `*.yml` and flagd files at any depth, in byte order of their
/// paths; not override files, hidden folders or `environments/`; symbolic links below the folder listed by name and
/// never followed into, the folder itself possibly a link.
struct DefinitionFilesTests {
    let folder = TemporaryDirectory()

    init() throws {
        for path in [
            "flags/b.yaml", "flags/a.yml", "flags/Z.yaml", "flags/é.yaml", "flags/nested/deep/c.yaml",
            "flags/flags/again.yaml", "flags/x.flagd.json", "flags/dir.yaml/inside.yaml",
            "flags/x.overrides.yaml", "flags/.hidden.yaml", "flags/.git/h.yaml", "flags/environments/prod.yaml",
            "flags/nested/environments/prod.yaml", "flags/notes.txt", "other/o.yaml",
        ] {
            _ = folder.write(path, "flags: {}\n")
        }
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: folder.file("flags/linked"), withDestinationPath: folder.file("other"))
        try manager.createSymbolicLink(atPath: folder.file("flags/o-link.yaml"),
                                       withDestinationPath: folder.file("other/o.yaml"))
        try manager.createSymbolicLink(atPath: folder.file("flags-link"), withDestinationPath: folder.file("flags"))
    }

    static let expected = [
        "Z.yaml", "a.yml", "b.yaml", "dir.yaml", "dir.yaml/inside.yaml", "flags/again.yaml", "nested/deep/c.yaml",
        "o-link.yaml", "x.flagd.json", "é.yaml",
    ]

    @Test func theDefinitionsFilesInByteOrder() {
        #expect(DefinitionLoader.definitionFiles(in: folder.file("flags")) == Self.expected.map { folder.file("flags/" + $0) })
    }

    @Test func aTrailingSlashOrALinkedFolderListsTheSame() {
        #expect(DefinitionLoader.definitionFiles(in: folder.file("flags") + "/")
            == Self.expected.map { folder.file("flags/" + $0) })
        #expect(DefinitionLoader.definitionFiles(in: folder.file("flags-link"))
            == Self.expected.map { folder.file("flags-link/" + $0) })
    }

    @Test func noFolderNoFiles() {
        #expect(DefinitionLoader.definitionFiles(in: folder.file("missing")).isEmpty)
        #expect(DefinitionLoader.definitionFiles(in: folder.file("flags/b.yaml")).isEmpty)
    }
}
