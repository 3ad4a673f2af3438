extension ServerConfiguration {
    /// Whether the server listens beyond loopback with neither token nor access file: then anyone who can reach it
    /// reads every flag, its explanation and the audit log, through OFREP and the console. The server logs a warning
    /// at start.
    public var isOpenBeyondThisMachine: Bool {
        adminToken == nil && readToken == nil && accessFile == nil && !Self.isLoopback(host)
    }

    /// Whether a listening address accepts connections from this machine only: `localhost`, `127.0.0.0/8`, `::1`.
    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased()
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
