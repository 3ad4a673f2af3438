import Foundation
import Switchboard
import SwitchboardServer
import SwitchboardTestSupport
import Testing

/// `switchboard access add` and `revoke` edit the file as text: comments and sign-in settings stay, tokens never
/// land in it, and a refused edit writes nothing.
@Suite struct AccessFileEditorTests {
    let project = TestProject(fixture: "flags")

    @Test func createsTheFileAndKeepsOnlyTheTokensHash() throws {
        let path = project.file("access.yaml")
        let token = try AccessFileEditor.add(name: "ana", grant: Grant(role: .admin), toFileAt: path)
        #expect(token.hasPrefix("sb_") && token.count == 46)
        let text = try #require(project.read("access.yaml"))
        #expect(!text.contains(token))
        let file = try AccessFile.load(path: path).file
        #expect(file.people.map(\.name) == ["ana"])
        #expect(file.person(withTokenSHA256: TokenDigest.sha256(of: token))?.grant == Grant(role: .admin))
        let second = try AccessFileEditor.add(name: "bo", grant: Grant(role: .read), toFileAt: path)
        #expect(second != token)
    }

    @Test func addsAfterTheLastPersonAndKeepsTheRest() throws {
        let path = project.write("access.yaml", """
            # The team's access.
            people:
              - name: ana   # lead
                token_sha256: \(String(repeating: "a", count: 64))
                role: admin

            # Sign-in for everyone else.
            oidc:
              issuer: https://idp.example.com
              audience: switchboard
            """)
        _ = try AccessFileEditor.add(name: "payments-bot", grant: Grant(role: .write, namespaces: ["checkout", "app"]),
                                     toFileAt: path)
        let text = try #require(project.read("access.yaml"))
        #expect(text.contains("# The team's access.\npeople:\n  - name: ana   # lead\n"))
        #expect(text.contains("    role: admin\n  - name: payments-bot\n"))
        #expect(text.contains("    namespaces: [checkout, app]\n\n# Sign-in for everyone else.\noidc:\n"))
        let file = try AccessFile.load(path: path).file
        #expect(file.people.map(\.name) == ["ana", "payments-bot"])
        #expect(file.people[1].grant == Grant(role: .write, namespaces: ["checkout", "app"]))
        #expect(file.oidc?.audience == "switchboard")

        try AccessFileEditor.revoke(name: "ana", inFileAt: path)
        let after = try AccessFile.load(path: path).file
        #expect(after.people.map(\.name) == ["payments-bot"])
        #expect(after.oidc != nil)
        #expect(try #require(project.read("access.yaml")).contains("# Sign-in for everyone else."))
    }

    @Test func quotesANameThatYAMLWouldReadAsSomethingElse() throws {
        let path = project.file("access.yaml")
        for name in ["true", "1234", "ana: lead", "o'hara"] {
            _ = try AccessFileEditor.add(name: name, grant: Grant(role: .read), toFileAt: path)
        }
        #expect(try AccessFile.load(path: path).file.people.map(\.name) == ["true", "1234", "ana: lead", "o'hara"])
    }

    @Test func refusesATakenOrBuiltInNameAndWritesNothing() throws {
        let path = project.file("access.yaml")
        _ = try AccessFileEditor.add(name: "ana", grant: Grant(role: .admin), toFileAt: path)
        let before = project.read("access.yaml")
        #expect {
            _ = try AccessFileEditor.add(name: "ana", grant: Grant(role: .read), toFileAt: path)
        } throws: { error in
            "\(error)".contains("'ana' is already in") && "\(error)".contains("access revoke ana")
        }
        #expect(throws: AccessFileEditor.Refusal.self) {
            _ = try AccessFileEditor.add(name: "read-token", grant: Grant(role: .read), toFileAt: path)
        }
        #expect(throws: AccessFileEditor.Refusal.self) {
            _ = try AccessFileEditor.add(name: "bo", grant: Grant(role: .write, namespaces: ["Not A Key"]),
                                         toFileAt: path)
        }
        #expect(project.read("access.yaml") == before)
    }

    @Test func refusesToEditAnInvalidFileOrRevokeSomeoneUnknown() throws {
        let path = project.write("access.yaml", "people:\n  - name: ana\n    rol: admin\n")
        #expect {
            _ = try AccessFileEditor.add(name: "bo", grant: Grant(role: .read), toFileAt: path)
        } throws: { error in
            guard let refusal = error as? AccessFileEditor.Refusal else { return false }
            return refusal.diagnostics.contains { $0.message == "unknown field 'rol' in a person" }
        }
        #expect(project.read("access.yaml") == "people:\n  - name: ana\n    rol: admin\n")
        let good = project.file("good.yaml")
        _ = try AccessFileEditor.add(name: "anna", grant: Grant(role: .read), toFileAt: good)
        #expect {
            try AccessFileEditor.revoke(name: "ana", inFileAt: good)
        } throws: { error in
            "\(error)".contains("'ana' is not in") && "\(error)".contains("did you mean 'anna'?")
        }
    }
}
