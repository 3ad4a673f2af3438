import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// `switchboard access add|list|revoke`: a token printed once and only its hash kept, names unique, mistakes in
/// the file reported as `validate` reports a definition's, and the file from `$SWITCHBOARD_ACCESS_FILE`.
struct AccessCommandTests {
    let project = replProject()

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        try runSwitchboard(arguments, environment: environment)
    }

    @Test func addsListsAndRevokesPeople() throws {
        let path = project.file("access.yaml")
        let add = try run(["access", "add", "payments-bot", "--role", "write", "--namespaces", "checkout, app",
                           "--access-file", path])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stdout.hasPrefix("added payments-bot (write in checkout, app) to \(path)\ntoken: sb_"))
        let token = try #require(add.stdout.split(separator: "\n").first { $0.hasPrefix("token: ") }?.dropFirst(7))
        let file = try #require(project.read("access.yaml"))
        #expect(!file.contains(token))
        #expect(file.contains("  - name: payments-bot\n    token_sha256: "))

        let again = try run(["access", "add", "payments-bot", "--role", "read", "--access-file", path])
        #expect(again.status == 1)
        #expect(again.stderr.contains("error: 'payments-bot' is already in \(path)"), "\(again.stderr)")
        #expect(project.read("access.yaml") == file)

        #expect(try run(["access", "add", "ana", "--role", "admin"],
                        environment: ["SWITCHBOARD_ACCESS_FILE": path]).status == 0)
        let list = try run(["access", "list", "--access-file", path])
        #expect(list.status == 0)
        #expect(list.stdout.contains("payments-bot  write in checkout, app  sha256 "))
        // The grants are padded too, so the tokens' column lines up.
        #expect(list.stdout.contains("ana           admin" + String(repeating: " ", count: 19) + "sha256 "))
        let json = try Value(json: try run(["access", "list", "--json", "--access-file", path]).stdout)
        #expect(json.objectValue?["people"]?.listValue?.compactMap { $0.objectValue?["name"]?.stringValue }
                    == ["payments-bot", "ana"])

        let revoke = try run(["access", "revoke", "payments-bot", "--access-file", path])
        #expect(revoke.status == 0, "\(revoke.stderr)")
        #expect(revoke.stdout == "revoked payments-bot in \(path)\n")
        let after = try Value(json: try run(["access", "list", "--json", "--access-file", path]).stdout)
        #expect(after.objectValue?["people"]?.listValue?.count == 1)
    }

    /// A name the audit log would show as another's: broken lines, invisible characters, a space at an end, and
    /// the log's own notation (`bob (claimed "ana")`).
    @Test(arguments: [
        ("eve\tx", "this one holds U+0009"), ("eve\nx", "this one holds U+000A"),
        ("eve\u{1B}[31m", "this one holds U+001B"), ("ana\u{200B}", "this one holds U+200B"),
        ("ana\u{034F}", "this one holds U+034F"), ("ana\u{3164}", "this one holds U+3164"),
        ("ana ", "a name cannot start or end with a space"), (" ana", "a name cannot start or end with a space"),
        ("ana \u{0301}", "a name cannot start or end with a space"),
        (#"bob (claimed "ana")"#, "a name cannot hold quotes or parentheses"),
    ])
    func refusesANameTheLogWouldShowAsAnother(name: String, message: String) throws {
        let path = project.file("access.yaml")
        let add = try run(["access", "add", name, "--role", "read", "--access-file", path])
        #expect(add.status == 1)
        #expect(add.stderr.contains(message), "\(add.stderr)")
        #expect(add.stderr.contains("hint: for example `ana`, `Zoë Ngata` or `payments-bot`"), "\(add.stderr)")
        #expect(project.read("access.yaml") == nil)
        // A name of more than ASCII is a name.
        #expect(try run(["access", "add", "Zoë Ngata", "--role", "read", "--access-file", path]).status == 0)
    }

    @Test func refusesUsageMistakes() throws {
        let path = project.file("access.yaml")
        let role = try run(["access", "add", "ana", "--role", "writer", "--access-file", path])
        #expect(role.status == 2)
        #expect(role.stderr.contains("unknown role 'writer'; did you mean 'write'?"), "\(role.stderr)")
        // The subcommand's own usage, not the top level's.
        #expect(role.stderr.contains("Usage: switchboard access add <name> --role <role>"), "\(role.stderr)")
        let namespaces = try run(["access", "add", "ana", "--role", "admin", "--namespaces", "x", "--access-file", path])
        #expect(namespaces.status == 2)
        #expect(namespaces.stderr.contains("--namespaces limits writers only"))
        let noFile = try run(["access", "list"])
        #expect(noFile.status == 2)
        #expect(noFile.stderr.contains("--access-file PATH or $SWITCHBOARD_ACCESS_FILE"))
        #expect(noFile.stderr.contains("Usage: switchboard access list"), "\(noFile.stderr)")
        #expect(project.read("access.yaml") == nil)
    }

    @Test func reportsAnInvalidFileWhereTheMistakeIs() throws {
        let path = project.write("access.yaml", "people:\n  - name: ana\n    token_sha256: abc\n    role: admin\n")
        let list = try run(["access", "list", "--access-file", path])
        #expect(list.status == 1)
        #expect(list.stderr.contains("\(path):3:19: error: token_sha256 must be 64 hexadecimal digits"), "\(list.stderr)")
        let serve = try run(["serve", "--port", "0", "--flags", project.flags, "--access-file", path])
        #expect(serve.status == 1)
        #expect(serve.stderr.contains("\(path):3:19: error: token_sha256 must be 64 hexadecimal digits"))
    }
}
