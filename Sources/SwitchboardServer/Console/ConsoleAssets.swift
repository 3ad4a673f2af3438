import Foundation
import NIOCore

/// The console's page, script, styles and icon, compiled into the binary: no file is read at run time, so a
/// `switchboard` copied alone to another machine serves the whole console.
///
/// The files are real web files in `Console/Web/` (`index.html`, `app.js`, `app.css`, `icon.svg`); the
/// `SwitchboardConsoleAssetsPlugin` build plugin turns them into ``files`` at every build, in a Swift file that
/// lives in the build's work directory and is never committed.
///
/// The page loads only the server's own script and styles and has no inline script or style, which the
/// Content-Security-Policy of ``ConsoleHeaders`` enforces. It links them by hashed names (`app.<hash>.js`), which
/// change with the content and so are cached for a year; the page itself and the plain names are revalidated with
/// an `ETag`. The script renders everything from the server as text (`textContent`, never HTML), so a description
/// like `<img src=x onerror=alert(1)>` shows those characters.
enum ConsoleAssets {
    /// The page served at `/`.
    static let pageName = "index.html"

    /// Each file by its plain and its hashed name.
    static let byName: [String: (asset: ConsoleAsset, hashed: Bool)] = {
        var names: [String: (asset: ConsoleAsset, hashed: Bool)] = [:]
        for asset in files {
            names[asset.name] = (asset, false)
            names[asset.hashedName] = (asset, true)
        }
        return names
    }()
}

/// One embedded file of the console.
struct ConsoleAsset: Sendable {
    /// Its name in `Console/Web/`, such as `app.js`.
    let name: String
    /// The name with the content hash before the extension, such as `app.5c1f0e2a9d3b7c64.js`.
    let hashedName: String
    /// The content hash: the `ETag`, and what changes the hashed name.
    let hash: String
    /// The content, as built (in a page, links to the other files already carry their hashed names).
    let bytes: ByteBuffer

    /// An embedded file whose content the build wrote in base64, which needs no escaping in a Swift literal.
    init(name: String, hashedName: String, hash: String, base64: StaticString) {
        self.name = name
        self.hashedName = hashedName
        self.hash = hash
        let encoded = UnsafeRawBufferPointer(start: base64.utf8Start, count: base64.utf8CodeUnitCount)
        // The build wrote the base64 itself; content that does not decode would be a broken build, not an input.
        bytes = ByteBuffer(bytes: Data(base64Encoded: Data(encoded))!)
    }

    /// The `Content-Type` of its extension.
    var contentType: String {
        switch name.split(separator: ".").last {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "svg": "image/svg+xml"
        default: "application/octet-stream"
        }
    }
}
