import Foundation
import SwitchboardTestSupport
import Testing

/// `switchboard stale` end to end on a copy of the stale report's fixture (`Fixtures/Stale` of the references
/// tests): the text report grouped by reason, `--json`, `--markdown`, `--strict`, sources that are not there, an
/// override change in the audit log, and `--server` against a running `switchboard serve`.
struct StaleCommandTests {
    static let fixture = Repository.path("Tests/SwitchboardReferencesTests/Fixtures/Stale")

    /// A copy of the fixture (its definitions and its sources), whose store the test may write.
    static func project() throws -> TestProject {
        let project = TestProject(copyingFlags: fixture + "/flags", prefix: "switchboard-stale-test")
        try FileManager.default.copyItem(atPath: fixture + "/Sources", toPath: project.file("Sources"))
        return project
    }

    @Test func theTextReportGroupsTheDefinitionsByReason() throws {
        let project = try Self.project()
        let result = try runSwitchboard(["stale"], in: project.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == """
            Past their expires day (1):
              flags/app.yaml:5  app.old_banner  expired 2020-01-31

            No code references them (1):
              flags/app.yaml:13  app.partner_only

            Served one value to everyone for 30 days (1):
              flags/app.yaml:18  app.new_flow  serves true; no override change in the audit log

            Note: the audit log is empty: the flags listed as constant are so by their definitions alone; an override set in another store (--store URL) is not seen.

            3 of 5 definitions can go: 1 expired, 1 unreferenced, 1 constant.

            """)
    }

    // `--at TIME` reports as of then, the files as they are now: before its expires day, the flag is not expired.
    @Test func atAnotherTimeTheExpiresDayIsJudgedThen() throws {
        let project = try Self.project()
        let before = try runSwitchboard(["stale", "--at", "2020-01-15T00:00:00Z", "--json"], in: project.path)
        #expect(before.status == 0, "\(before.stderr)")
        #expect(!before.stdout.contains("app.old_banner"))
        let after = try runSwitchboard(["stale", "--at", "2020-02-01T00:00:00Z", "--json"], in: project.path)
        #expect(after.stdout.contains("app.old_banner"))
        let zoneless = try runSwitchboard(["stale", "--at", "2020-02-01T00:00:00"], in: project.path)
        #expect(zoneless.status == 2)
        #expect(zoneless.stderr.contains("--at needs a time zone"))
    }

    // A typo in --sources, or a run away from the package's code, is said: otherwise every definition is listed
    // as one no code references.
    @Test func sourcesThatAreNotThereAreSaid() throws {
        let project = try Self.project()
        let misspelt = try runSwitchboard(["stale", "--sources", "Sourcs"], in: project.path)
        #expect(misspelt.status == 2)
        #expect(misspelt.stderr.contains("--sources: there is no file or folder at Sourcs"), "\(misspelt.stderr)")
        try FileManager.default.removeItem(atPath: project.file("Sources"))
        let none = try runSwitchboard(["stale"], in: project.path)
        #expect(none.status == 0)
        #expect(none.stderr.contains(
            "warning: no Swift files were read, so every definition is listed as unreferenced"), "\(none.stderr)")
    }

    @Test func strictExitsOneWhenAnythingIsListed() throws {
        let project = try Self.project()
        let failing = try runSwitchboard(["stale", "--strict"], in: project.path)
        #expect(failing.status == 1)
        #expect(failing.stderr.contains("--strict: 3 stale definitions"))
        // With the unreferenced key allowed and the expired flag read by code, two remain.
        let allowed = try runSwitchboard(["stale", "--strict", "--allow-unreferenced", "app.partner_*"],
                                         in: project.path)
        #expect(allowed.status == 1)
        #expect(allowed.stderr.contains("--strict: 2 stale definitions"))
    }

    @Test func anOverrideChangeWithinTheWindowMeansNotConstant() throws {
        let project = try Self.project()
        let set = try runSwitchboard(["set", "app.new_flow", "false"], in: project.path)
        #expect(set.status == 0, "\(set.stderr)")
        let result = try runSwitchboard(["stale", "--json"], in: project.path)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect((document["constant"] as? [Any])?.isEmpty == true)
    }

    @Test func jsonAndMarkdown() throws {
        let project = try Self.project()
        let json = try runSwitchboard(["stale", "--json", "--days", "7"], in: project.path)
        #expect(json.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(Set(document.keys) == ["days", "expired", "unreferenced", "constant", "server", "audit_since",
                                       "audit_covers_window"])
        #expect(document["audit_since"] is NSNull && document["audit_covers_window"] as? Bool == false)
        #expect(document["days"] as? Int == 7)
        #expect(document["server"] is NSNull)
        let expired = try #require((document["expired"] as? [[String: Any]])?.first)
        #expect(expired["key"] as? String == "app.old_banner")
        #expect(expired["file"] as? String == "flags/app.yaml" && expired["line"] as? Int == 5)
        #expect(expired["expires"] as? String == "2020-01-31")
        let constant = try #require((document["constant"] as? [[String: Any]])?.first)
        #expect(Set(constant.keys) == ["key", "file", "line", "value", "last_change"])
        #expect(constant["value"] as? Bool == true && constant["last_change"] is NSNull)

        let markdown = try runSwitchboard(["stale", "--markdown"], in: project.path)
        #expect(markdown.stdout.hasPrefix(
            "## Stale flags\n\n### Past their expires day (1)\n\n| key | defined at | |\n"))
        #expect(markdown.stdout.contains("| `app.partner_only` | `flags/app.yaml:13` |  |\n"))

        let both = try runSwitchboard(["stale", "--json", "--markdown"], in: project.path)
        #expect(both.status == 2)
        #expect(try runSwitchboard(["stale", "--days", "0"], in: project.path).status == 2)
    }

    /// `switchboard serve` on the project's flags with an admin token, for `stale --server`, and the token's file.
    static func serve(_ project: TestProject) async throws -> (server: ServeProcess, token: String) {
        project.write("admin-token", "admin-secret\n")
        let arguments = ["--flags", project.flags, "--admin-token-file", project.file("admin-token")]
        return (try await ServeProcess(arguments, log: project.path + "/serve.log"), project.file("admin-token"))
    }

    /// Asks the server for each key over OFREP, one request after the other, as a client would.
    static func evaluate(_ keys: [String], on server: ServeProcess) async throws {
        for key in keys {
            let connection = try RawConnection(port: server.port)
            let body = #"{"context":{}}"#
            _ = connection.send("POST /ofrep/v1/evaluate/flags/\(key) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
            _ = try await connection.waitFor("\r\n\r\n{")
        }
    }

    @Test func serverAddsWhatClientsAskedFor() async throws {
        let project = try Self.project()
        let (server, token) = try await Self.serve(project)
        defer { server.stop() }
        try await Self.evaluate(["app.new_flwo", "app.new_flow", "app.new_flwo"], on: server)
        let (url, path) = ("http://127.0.0.1:\(server.port)", project.path)
        let text = try await onOwnThread {
            try runSwitchboard(["stale", "--server", url, "--token-file", token], in: path)
        }
        #expect(text.status == 0, "\(text.stderr)")
        // A server that started moments ago has not counted for the 30 days: it lists nothing as not evaluated
        // (which would call every flag it has not served yet unused), and says why.
        #expect(!text.stdout.contains("Not evaluated by the server"))
        #expect(text.stdout.contains("""
            Keys clients asked for that no file defines (1):
              app.new_flwo  2 lookups: did you mean 'app.new_flow'?

            Note: the audit log is empty: the flags listed as constant are so by their definitions alone; an override set in another store (--store URL) is not seen.

            Note: the server has counted evaluations only since 
            """))
        #expect(text.stdout.contains("""
            , less than 30 days: none is listed as not evaluated until it has counted for 30 days.

            3 of 5 definitions can go: 1 expired, 1 unreferenced, 1 constant, 0 not evaluated, 1 unknown key.
            """))

        let json = try await onOwnThread {
            try runSwitchboard(["stale", "--server", url, "--token-file", token, "--json"], in: path)
        }
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let seen = try #require(document["server"] as? [String: Any])
        #expect(Set(seen.keys) == ["since", "counted_whole_window", "not_evaluated", "unknown"])
        #expect(seen["counted_whole_window"] as? Bool == false)
        let unknown = try #require(seen["unknown"] as? [[String: Any]])
        #expect(unknown.count == 1)
        #expect(unknown.first?["key"] as? String == "app.new_flwo" && unknown.first?["lookups"] as? Int == 2)

        // The token may come from the environment, as `serve` takes it.
        let fromEnvironment = try await onOwnThread {
            try runSwitchboard(["stale", "--server", url], in: path,
                               environment: ["SWITCHBOARD_ADMIN_TOKEN": "admin-secret"])
        }
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")

        // Without the admin token the server refuses, and so does the command.
        let refused = try await onOwnThread { try runSwitchboard(["stale", "--server", url], in: path) }
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("cannot read GET \(url)/v1/usage: the server answered 401"))
    }
}
