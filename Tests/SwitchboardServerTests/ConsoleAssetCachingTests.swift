import HTTPTypes
import HummingbirdTesting
import NIOCore
@testable import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// The console's files as the build plugin embeds them: the page links hashed names, which are cached for a year;
/// the page and plain names are revalidated with an `ETag` and answer 304 when the browser has them.
@Suite struct ConsoleAssetCachingTests {
    let project = TestProject(fixture: "flags")

    private func withClient(_ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let server = FlagServer(board: try project.board(), configuration: ServerConfiguration())
        try await server.makeApplication().test(.router) { client in try await test(client) }
    }

    @Test func everyWebFileIsEmbeddedWithAHashInItsName() throws {
        let names = Set(ConsoleAssets.files.map(\.name))
        #expect(names == ["index.html", "app.js", "app.css", "icon.svg"])
        for asset in ConsoleAssets.files {
            #expect(asset.hash.count == 16)
            #expect(asset.hashedName.contains(".\(asset.hash)."))
        }
    }

    @Test func thePageLinksTheHashedNames() async throws {
        try await withClient { client in
            let page = try await client.send(.get, "/").text
            for name in ["app.js", "app.css", "icon.svg"] {
                let asset = try #require(ConsoleAssets.byName[name]?.asset)
                #expect(page.contains("\"/console/\(asset.hashedName)\""))
                #expect(!page.contains("\"/console/\(name)\""))
            }
        }
    }

    @Test func aHashedNameIsCachedForAYear() async throws {
        try await withClient { client in
            let asset = try #require(ConsoleAssets.byName["app.js"]?.asset)
            let response = try await client.send(.get, "/console/\(asset.hashedName)")
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(response.headers[.eTag] == "\"\(asset.hash)\"")
            #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
        }
    }

    @Test(arguments: ["/", "/console/app.css"])
    func thePageAndPlainNamesAreRevalidated(path: String) async throws {
        try await withClient { client in
            let first = try await client.send(.get, path)
            #expect(first.status == .ok)
            #expect(first.headers[.cacheControl] == "no-cache")
            let tag = try #require(first.headers[.eTag])
            let again = try await client.send(.get, path, headers: [.ifNoneMatch: tag])
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
            let stale = try await client.send(.get, path, headers: [.ifNoneMatch: "\"0000000000000000\""])
            #expect(stale.status == .ok)
        }
    }

    @Test func anUnknownFileIsNotFound() async throws {
        try await withClient { client in
            let response = try await client.send(.get, "/console/nothing.js")
            #expect(response.status == .notFound)
            #expect(response.headers[HTTPField.Name("Content-Security-Policy")!] != nil)
        }
    }
}
