import Foundation
import Switchboard
import SwitchboardServer
import Testing

/// The access file's format: what it accepts, and every mistake at `file:line:column` with a hint.
@Suite struct AccessFileTests {
    static let hashA = String(repeating: "a", count: 64)
    static let hashB = String(repeating: "b", count: 64)

    private func parse(_ text: String) throws -> AccessFile {
        try AccessFile.parse(Array(text.utf8), file: "access.yaml").file
    }

    private func problems(_ text: String) -> [Diagnostic] {
        do {
            _ = try AccessFile.parse(Array(text.utf8), file: "access.yaml")
            return []
        } catch {
            return error.diagnostics
        }
    }

    @Test func readsPeopleRolesNamespacesAndSignIn() throws {
        let file = try parse("""
            people:
              - name: ana
                token_sha256: \(Self.hashA.uppercased())
                role: admin
              - name: payments-bot
                token_sha256: \(Self.hashB)
                role: write
                namespaces: [checkout, app.billing]
            anonymous_read: true
            oidc:
              issuer: https://idp.example.com
              audience: switchboard
              name_claim: email
              roles:
                claim: groups
                map:
                  flag-admins: { role: admin }
                  payments: { role: write, namespaces: [checkout] }
            """)
        #expect(file.people.map(\.name) == ["ana", "payments-bot"])
        #expect(file.people[0].tokenSHA256 == Self.hashA)
        #expect(file.people[0].grant == Grant(role: .admin))
        #expect(file.people[1].grant == Grant(role: .write, namespaces: ["checkout", "app.billing"]))
        #expect(file.people[1].location.map { "\($0)" } == "access.yaml:5:5")
        #expect(file.anonymousRead)
        #expect(file.person(withTokenSHA256: Self.hashB)?.name == "payments-bot")
        let oidc = try #require(file.oidc)
        #expect(oidc.issuer.absoluteString == "https://idp.example.com")
        #expect(oidc.clientID == "switchboard")
        #expect(oidc.roleMap["payments"] == Grant(role: .write, namespaces: ["checkout"]))
        #expect(oidc.grant(forGroups: ["payments", "staff"]) == Grant(role: .write, namespaces: ["checkout"]))
        #expect(oidc.grant(forGroups: ["staff"]) == nil)
    }

    @Test func anEmptyFileHasNobody() throws {
        #expect(try parse("").people.isEmpty)
        #expect(try parse("people:\n").people.isEmpty)
    }

    @Test(arguments: [
        ("people:\n  - name: ana\n    token_sha256: \(hashA)\n    rol: admin\n", 4, 5,
         "unknown field 'rol' in a person", "did you mean 'role'?"),
        ("people:\n  - name: ana\n    token_sha256: \(hashA)\n    role: owner\n", 4, 11,
         "unknown role 'owner'", "a role is read, write or admin"),
        ("people:\n  - name: ana\n    token_sha256: abc\n    role: read\n", 3, 19,
         "token_sha256 must be 64 hexadecimal digits, the SHA-256 of the token", "never put the token itself"),
        ("people:\n  - name: ana\n    token_sha256: \(hashA)\n    role: read\n  - name: ana\n    token_sha256: \(hashB)\n    role: read\n",
         5, 5, "'ana' is in the access file twice", "the first is at access.yaml:2:5"),
        ("people:\n  - name: ana\n    token_sha256: \(hashA)\n    role: read\n  - name: bo\n    token_sha256: \(hashA)\n    role: read\n",
         5, 5, "'bo' has the same token as 'ana'", "a token of their own"),
        ("people:\n  - name: admin-token\n    token_sha256: \(hashA)\n    role: read\n", 2, 11,
         "'admin-token' is a built-in name", "choose another"),
        ("people:\n  - name: ana\n    role: read\n", 2, 5, "'ana' has no token_sha256", "switchboard access add ana"),
        ("people:\n  - name: ana\n    token_sha256: \(hashA)\n    role: write\n    namespaces: []\n", 5, 17,
         "an empty `namespaces` list lets the person write nothing", "remove `namespaces`"),
        ("people:\n  - name: ana\n    token_sha256: \(hashA)\n    role: write\n    namespaces: [Check out]\n", 5, 18,
         "'Check out' is not a namespace", "a"),
        ("peeple: []\n", 1, 1, "unknown field 'peeple' in an access file", "did you mean 'people'?"),
        ("oidc:\n  issuer: http://idp.example.com\n  audience: x\n", 2, 11,
         "the issuer must be an https URL (http only on a loopback address)", "https://idp.example.com"),
        ("oidc:\n  issuer: https://idp.example.com\n", 2, 3, "`oidc` needs an audience", "client id"),
        ("anonymous_read: sometimes\n", 1, 17, "anonymous_read must be true or false", "anonymous_read: true"),
        ("people:\n  - name: ana\n    token_sha256: [1]\n", 3, 19, "token_sha256 must be text", "write one value"),
    ] as [(String, Int, Int, String, String)])
    func reportsAMistakeWhereItIs(text: String, line: Int, column: Int, message: String, hint: String) throws {
        let found = problems(text)
        let error = try #require(found.first { $0.isError }, "\(found)")
        #expect(error.description.hasPrefix("access.yaml:\(line):\(column): error: "), "\(error)")
        #expect(error.message.contains(message), "\(error)")
        #expect((error.hint ?? "").contains(hint), "\(error)")
    }

    /// A name the audit log would show as another's, which `access add` refuses: in a file written by hand or
    /// before the rule, a warning, so that the server keeps running and `access revoke` keeps working.
    @Test(arguments: [
        ("\"ana \"", "a name cannot start or end with a space"),
        ("\"ana\\u200B\"", "this one holds U+200B"),
        ("\"ana\\u034F\"", "this one holds U+034F"),
        ("'bob (claimed \"ana\")'", "a name cannot hold quotes or parentheses"),
    ])
    func aNameThatCouldPassForAnotherIsAWarning(name: String, message: String) throws {
        let text = "people:\n  - name: \(name)\n    token_sha256: \(Self.hashA)\n    role: read\n"
        let (file, warnings) = try AccessFile.parse(Array(text.utf8), file: "access.yaml")
        #expect(file.people.count == 1)
        let warning = try #require(warnings.first, "\(warnings)")
        #expect(warning.description.hasPrefix("access.yaml:2:11: warning: "), "\(warning)")
        #expect(warning.message.contains(message), "\(warning)")
        #expect(warning.hint?.contains("revoke") == true, "\(warning)")
    }

    @Test func allowsHTTPOnlyOnLoopback() throws {
        let file = try parse("oidc:\n  issuer: http://127.0.0.1:9000/realm\n  audience: sb\n")
        #expect(file.oidc?.issuer.port == 9000)
        #expect(OIDCSettings.isAcceptable(issuer: URL(string: "http://localhost:1")!))
        #expect(!OIDCSettings.isAcceptable(issuer: URL(string: "http://10.0.0.1")!))
        #expect(!OIDCSettings.isAcceptable(issuer: URL(string: "ftp://idp.example.com")!))
    }

    @Test func warnsWhenNamespacesCannotApply() throws {
        let (file, warnings) = try AccessFile.parse(Array("""
            people:
              - name: ana
                token_sha256: \(Self.hashA)
                role: read
                namespaces: [checkout]
            """.utf8), file: "access.yaml")
        #expect(file.people.first?.grant.role == .read)
        #expect(warnings.map(\.description) == [
            "access.yaml:5:17: warning: namespaces limit writers only; 'ana' has the role 'read'\n"
                + "  hint: remove `namespaces`, or make the role `write`",
        ])
    }
}
