import Foundation

/// The reverse proxies whose `X-Forwarded-For` the server believes, so that failed sign-ins are counted per client
/// rather than per proxy: behind a proxy every client shares its address, and ten wrong tokens from one client
/// would otherwise lock every client out for a minute.
///
/// Each entry is an IPv4 or IPv6 address, or a block in CIDR notation (`10.0.0.0/8`, `fd00::/8`). A request whose
/// connection comes from one of them is attributed to the rightmost address in `X-Forwarded-For` that is not
/// one of them (each proxy appends the address it received the request from, so the entries left of it could be
/// written by the client), without a port if the proxy wrote one; from anyone else, the header is ignored.
public struct TrustedProxies: Sendable, Hashable {
    /// An address or block: the address's bytes and how many leading bits must match.
    private struct Block: Sendable, Hashable {
        var bytes: [UInt8]
        var prefix: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var bits = prefix
            for (mine, theirs) in zip(bytes, address) where bits > 0 {
                let mask: UInt8 = bits >= 8 ? 0xFF : ~(0xFF >> UInt8(bits))
                if mine & mask != theirs & mask { return false }
                bits -= 8
            }
            return true
        }
    }

    private let blocks: [Block]

    /// No proxy is trusted: every request is its connection's.
    public static let none = TrustedProxies(blocks: [])

    private init(blocks: [Block]) {
        self.blocks = blocks
    }

    /// Reads `--trusted-proxy` values.
    ///
    /// - Throws: ``Invalid`` naming the first entry that is no address or block.
    public init(_ entries: [String]) throws(Invalid) {
        var blocks: [Block] = []
        for entry in entries {
            let parts = entry.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let address = Self.bytes(of: String(parts[0])) else { throw Invalid(entry: entry) }
            let bits = address.count * 8
            var prefix = bits
            if parts.count == 2 {
                guard let given = Int(parts[1]), (0...bits).contains(given) else { throw Invalid(entry: entry) }
                prefix = given
            }
            blocks.append(Block(bytes: address, prefix: prefix))
        }
        self.blocks = blocks
    }

    /// An entry that is neither an IP address nor a CIDR block.
    public struct Invalid: Error, CustomStringConvertible {
        /// The entry as given.
        public var entry: String
        public var description: String {
            "--trusted-proxy takes an IP address or a CIDR block such as 10.0.0.0/8, not '\(entry)'"
        }
    }

    /// Whether no proxy is trusted.
    public var isEmpty: Bool { blocks.isEmpty }

    /// The client a request comes from: `peer` (the connection's address), or, when `peer` is a trusted proxy,
    /// the rightmost untrusted address of `forwardedFor` (every `X-Forwarded-For` header's entries, in order).
    func client(peer: String, forwardedFor: [String]) -> String {
        guard !blocks.isEmpty, isTrusted(peer) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed() {
            // A hop that is no address (`unknown`, garbage) ends the chain: what is left of it is the client's word.
            guard let address = Self.address(ofHop: hop) else { return peer }
            if !isTrusted(address) { return address }
        }
        return peer
    }

    /// The address of an `X-Forwarded-For` entry, without the port some proxies add (`203.0.113.9:41234`,
    /// `[2001:db8::1]:41234`): a client is one address whatever port each of its connections came from. `nil` for
    /// an entry that is no address.
    static func address(ofHop hop: String) -> String? {
        if bytes(of: hop) != nil { return hop }
        let host: Substring
        let port: Substring
        if hop.hasPrefix("["), let close = hop.firstIndex(of: "]") {
            host = hop[hop.index(after: hop.startIndex)..<close]
            port = hop[hop.index(after: close)...]
        } else if let colon = hop.firstIndex(of: ":"), hop.lastIndex(of: ":") == colon {
            host = hop[..<colon]
            port = hop[colon...]
        } else {
            return nil
        }
        let digits = port.dropFirst()
        guard port.isEmpty || (port.first == ":" && !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }),
              bytes(of: String(host)) != nil
        else { return nil }
        return String(host)
    }

    private func isTrusted(_ address: String) -> Bool {
        guard let bytes = Self.bytes(of: address) else { return false }
        return blocks.contains { $0.contains(bytes) }
    }

    /// The bytes of an IPv4 (4) or IPv6 (16) address in text; an IPv4-mapped IPv6 address is read as its IPv4.
    private static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF { return Array(bytes[12...]) }
        return bytes
    }
}
