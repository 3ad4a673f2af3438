import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// `switchboard set KEY VALUE --for DURATION | --until TIME`: usage errors (exit 2, nothing written), `expires_at`
/// in `get`, `explain` and `list --json`, the time left in `set`, `explain` and `list`, and `set --help`.
struct SetExpiryCommandTests {
    let project = replProject()

    func run(_ arguments: [String]) throws -> ProcessResult {
        try runSwitchboard(arguments + ["--flags", project.flags])
    }

    @Test(arguments: [
        (["--for", "2h", "--until", "2099-01-01T00:00:00Z"], "give either --for or --until, not both"),
        (["--until", "2020-01-01T00:00:00Z"], "--until 2020-01-01T00:00:00Z is in the past"),
        (["--until", "2099-01-01T00:00:00"], "--until needs a time zone: '2099-01-01T00:00:00' has none"),
        (["--until", "soon"], "--until takes an RFC 3339 time with a zone"),
        (["--for", "2"], "--for takes a whole number and a unit (s, m, h or d)"),
        (["--for", "366d"], "--for is at most 365 days (365d), not '366d'"),
        (["--until", "2099-01-01T00:00:00Z"], "--until 2099-01-01T00:00:00Z is more than 365 days away"),
        (["--for", "0m"], "--for must be longer than 0"),
        (["--for", "-2h"], "--for must be longer than 0, not '-2h'"),
    ])
    func aBadExpiryIsAUsageErrorAndWritesNothing(options: [String], message: String) throws {
        let result = try run(["set", "app.new_flow", "true"] + options)
        #expect(result.status == 2)
        #expect(result.stderr.contains("Error: " + message), "\(result.stderr)")
        #expect(try run(["log"]).stdout == "no changes have been recorded\n")
    }

    @Test func setForShowsTheExpiryInEveryFace() throws {
        let set = try run(["set", "app.new_flow", "true", "--for", "2h"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout == "app.new_flow = true (runtime, expires in 2 h)\n")
        let get = try Value(json: try run(["get", "app.new_flow", "--json"]).stdout)
        let expiresAt = try #require(get.objectValue?["expires_at"]?.stringValue)
        let expiry = try #require(Timestamp.parseZoned(expiresAt))
        let now = Date().timeIntervalSince1970
        #expect(expiry > now + 7_100 && expiry <= now + 7_200)
        let explain = try Value(json: try run(["explain", "app.new_flow", "--json"]).stdout)
        #expect(explain.objectValue?["expires_at"] == .string(expiresAt))
        let list = try Value(json: try run(["list", "--json"]).stdout).listValue ?? []
        #expect(list.first { $0.objectValue?["key"] == "app.new_flow" }?.objectValue?["expires_at"]
                    == .string(expiresAt))
        #expect(list.first { $0.objectValue?["key"] == "app.dark_mode" }?.objectValue?["expires_at"] == nil)
        #expect(try run(["list", "app.new_flow"]).stdout.contains("runtime (expires in 2 h)"))
        #expect(try run(["explain", "app.new_flow"]).stdout
                    .contains("the runtime override expires in 2 h (\(expiresAt))\n"))
        let log = try Value(json: try run(["log", "--json"]).stdout).listValue ?? []
        #expect(log.map { $0.objectValue?["expires_at"] } == [.string(expiresAt)])
    }

    @Test func setUntilTakesAnOffset() throws {
        let expiry = upcomingExpiry()
        #expect(try run(["set", "app.new_flow", "true", "--until", expiry.withOffset]).status == 0)
        let get = try Value(json: try run(["get", "app.new_flow", "--json"]).stdout)
        #expect(get.objectValue?["expires_at"] == .string(expiry.utc))
    }

    @Test func setWithoutAnExpiryClearsOne() throws {
        #expect(try run(["set", "app.new_flow", "true", "--for", "1h"]).status == 0)
        #expect(try run(["set", "app.new_flow", "true"]).stdout == "app.new_flow = true (runtime)\n")
        let get = try Value(json: try run(["get", "app.new_flow", "--json"]).stdout)
        #expect(get.objectValue?["expires_at"] == nil)
    }

    @Test func setHelpExplainsExpiry() throws {
        let help = try runSwitchboard(["set", "--help"]).stdout
        #expect(help.contains("--for <duration>"))
        #expect(help.contains("--until <time>"))
        #expect(help.contains("switchboard set checkout.debug true --for 2h"))
        #expect(help.contains("stops counting"))
    }
}
