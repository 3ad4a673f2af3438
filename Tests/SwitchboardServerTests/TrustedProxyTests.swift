import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Switchboard
@testable import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// Behind a trusted proxy (`--trusted-proxy`) failed sign-ins are held against the client `X-Forwarded-For` names,
/// so one client's wrong tokens do not lock out everyone behind the proxy; from anyone else the header is ignored,
/// since a client could write it.
@Suite struct TrustedProxyTests {
    let project = TestProject(fixture: "flags")
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    private func failTenTimes(_ client: TestClient, as address: String) async throws {
        for attempt in 1...10 {
            let response = try await client.get("/v1/flags", headers: [
                .authorization: "Bearer guess-\(attempt)", Self.forwardedFor: "203.0.113.9, \(address)",
            ])
            #expect(response.status == .unauthorized, "attempt \(attempt)")
        }
    }

    @Test func oneClientsFailuresLockOutThatClientOnly() async throws {
        try await LiveServer.with(project, configure: {
            $0.adminToken = AccessToken("admin-secret")
            $0.trustedProxies = try! TrustedProxies(["127.0.0.0/8", "::1"])
        }) { live in
            try await TestClient.withClient(host: "127.0.0.1", port: live.port) { client in
                try await failTenTimes(client, as: "198.51.100.7")
                let locked = try await client.get("/v1/flags", headers: [
                    .authorization: "Bearer admin-secret", Self.forwardedFor: "198.51.100.7",
                ])
                #expect(locked.status == .tooManyRequests)
                let other = try await client.get("/v1/flags", headers: [
                    .authorization: "Bearer admin-secret", Self.forwardedFor: "198.51.100.8",
                ])
                #expect(other.status == .ok)
            }
        }
    }

    @Test func withoutATrustedProxyTheHeaderIsIgnored() async throws {
        try await LiveServer.with(project, configure: { $0.adminToken = AccessToken("admin-secret") }) { live in
            try await TestClient.withClient(host: "127.0.0.1", port: live.port) { client in
                try await failTenTimes(client, as: "198.51.100.7")
                // A client cannot escape its lockout by naming another address.
                let escaped = try await client.get("/v1/flags", headers: [
                    .authorization: "Bearer admin-secret", Self.forwardedFor: "198.51.100.8",
                ])
                #expect(escaped.status == .tooManyRequests)
            }
        }
    }

    /// Some proxies write the client's port too: a client is its address, whatever port each connection came from.
    @Test(arguments: [
        ("203.0.113.9", "203.0.113.9"), ("203.0.113.9:41234", "203.0.113.9"), ("[2001:db8::1]:443", "2001:db8::1"),
        ("[2001:db8::1]", "2001:db8::1"), ("2001:db8::1", "2001:db8::1"),
    ])
    func aForwardedAddressIsReadWithoutItsPort(hop: String, client: String) throws {
        let proxies = try TrustedProxies(["10.0.0.1"])
        #expect(proxies.client(peer: "10.0.0.1", forwardedFor: ["198.51.100.7, \(hop)"]) == client)
    }

    /// An entry that is no address (or an address with something that is no port) ends the chain: the request is
    /// the proxy's.
    @Test(arguments: ["unknown", "203.0.113.9:", "203.0.113.9:http", "[2001:db8::1]x", "[nonsense]:80", "a:b:c"])
    func aForwardedEntryThatIsNoAddressIsTheProxys(hop: String) throws {
        let proxies = try TrustedProxies(["10.0.0.1"])
        #expect(proxies.client(peer: "10.0.0.1", forwardedFor: [hop]) == "10.0.0.1")
    }

    @Test(arguments: ["10.0.0.0/33", "not-an-address", "10.0.0.1/", "::1/129"])
    func anEntryThatIsNoAddressIsRefused(entry: String) {
        #expect(throws: TrustedProxies.Invalid.self) { try TrustedProxies([entry]) }
    }
}
