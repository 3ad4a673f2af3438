import Foundation

/// The web origins whose pages may call OFREP from a browser (`serve --cors-origin`): an OpenFeature web SDK on
/// `https://app.example.com` asking a server on `https://flags.example.com`. Without them a browser lets a page read
/// only its own origin's answers, so the server sends no CORS headers at all.
///
/// Each entry is an origin as a browser sends it, `scheme://host[:port]` (`https://app.example.com`,
/// `http://localhost:3000`), or `*` for any origin. Only OFREP answers carry the headers: the admin API and the
/// console stay same-origin whatever is listed.
public struct AllowedOrigins: Sendable, Hashable {
    private let origins: Set<String>
    private let any: Bool

    /// No other origin: the server sends no CORS headers.
    public static let none = AllowedOrigins(origins: [], any: false)

    private init(origins: Set<String>, any: Bool) {
        self.origins = origins
        self.any = any
    }

    /// Reads `--cors-origin` values.
    ///
    /// - Throws: ``Invalid`` naming the first entry that is no origin.
    public init(_ entries: [String]) throws(Invalid) {
        var origins: Set<String> = []
        var any = false
        for entry in entries {
            if entry == "*" {
                any = true
                continue
            }
            guard let origin = Self.normalized(entry) else { throw Invalid(entry: entry) }
            origins.insert(origin)
        }
        self.init(origins: origins, any: any)
    }

    /// Whether no origin is allowed.
    public var isEmpty: Bool { origins.isEmpty && !any }

    /// The `Access-Control-Allow-Origin` value for a request's `Origin`, or `nil` when that origin is not allowed.
    func allowOrigin(for origin: String) -> String? {
        if any { return "*" }
        guard let normalized = Self.normalized(origin), origins.contains(normalized) else { return nil }
        return origin
    }

    /// `scheme://host[:port]` lowercased, without the scheme's default port (browsers send scheme and host in lower
    /// case, and no `:443` for https or `:80` for http), or `nil` when `text` is not one: another scheme, a path, a
    /// query, user information, an empty host or a port out of range. An IPv6 host is in brackets, `[::1]`.
    private static func normalized(_ text: String) -> String? {
        let lowered = text.lowercased()
        guard let separator = lowered.range(of: "://") else { return nil }
        let scheme = String(lowered[..<separator.lowerBound])
        let authority = lowered[separator.upperBound...]
        guard scheme == "http" || scheme == "https", !authority.contains(where: { "/?#@ ".contains($0) }) else {
            return nil
        }
        var host = authority
        var port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
            let rest = authority[authority.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                port = rest.dropFirst()
            }
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        }
        guard host.count > (host.hasPrefix("[") ? 2 : 0) else { return nil }
        guard let port else { return "\(scheme)://\(host)" }
        guard let number = Int(port), (1...65535).contains(number) else { return nil }
        let isDefault = (scheme == "https" && number == 443) || (scheme == "http" && number == 80)
        return isDefault ? "\(scheme)://\(host)" : "\(scheme)://\(host):\(number)"
    }

    /// An entry that is neither an origin nor `*`.
    public struct Invalid: Error, CustomStringConvertible {
        /// The entry as given.
        public var entry: String

        /// What is wrong with the entry, and how an origin is written.
        public var description: String {
            "--cors-origin: '\(entry)' is not an origin; write scheme://host[:port] as the browser's address bar "
                + "shows it, with no path (https://app.example.com, http://localhost:3000), or * for any"
        }
    }
}
