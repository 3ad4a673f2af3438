import Foundation
import Testing
@testable import Switchboard
import SwitchboardTestSupport

/// The `switchboard` executable end to end: output, JSON and exit codes.
struct CommandLineTests {
    @Test func validateReportsAndExitsOne() throws {
        let project = TestProject()
        project.write("flags/a.yaml", "flags:\n  a:\n    type: bool\n    default: yes\n")
        let result = try runSwitchboard(["validate", "--flags", project.path + "/flags"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("a.yaml:4:14: error: default of a: expected a bool, found the string \"yes\""))
        #expect(result.stdout.contains("0 definitions in 1 file, 1 error, 0 warnings"))
    }

    @Test func validateCountsOneDefinitionInTheSingular() throws {
        let project = TestProject()
        project.write("flags/a.yaml", "flags:\n  a:\n    type: bool\n    default: true\n")
        let result = try runSwitchboard(["validate", "--flags", project.path + "/flags"])
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix(": 1 definition in 1 file, 0 errors, 0 warnings\n"))
    }

    @Test func validateJSON() throws {
        let project = TestProject()
        project.write("flags/a.yaml", "flags:\n  a:\n    type: bool\n    default: true\n    expires: 2020-01-01\n")
        let result = try runSwitchboard(["validate", "--json", "--flags", project.path + "/flags"])
        #expect(result.status == 0)
        let json = try Value(json: result.stdout)
        #expect(json.objectValue?["ok"] == true)
        #expect(json.objectValue?["warnings"] == 1)
    }

    @Test func validateChecksEveryOverrideFile() throws {
        let project = makeProject()
        project.write("flags/environments/staging.yaml", "overrides:\n  app.theme: purple\n")
        let result = try runSwitchboard(["validate", "--flags", project.flags])
        #expect(result.status == 0)
        #expect(result.stdout.contains("staging.yaml:2:14: warning: override of app.theme skipped: purple is not an allowed value"))
        let missing = try runSwitchboard(["validate", "--flags", project.flags], environment: ["SWITCHBOARD_ENV": "prod"])
        #expect(missing.status == 1)
        #expect(missing.stdout.contains("environments/prod.yaml does not exist"))
    }

    @Test func validateNamesAVariableThatOverridesNoKey() throws {
        let project = makeProject()
        let result = try runSwitchboard(["validate", "--flags", project.flags], environment: [
            "SWITCHBOARD_APP__UPLOAD_MAX_MB": "50", "SWITCHBOARD_TEST_POSTGRES_URL": "postgres://localhost/test",
        ])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("warning: SWITCHBOARD_APP__UPLOAD_MAX_MB is set but overrides no key\n"
            + "  hint: did you mean 'SWITCHBOARD_APP__UPLOAD__MAX_MB'? (the variable of app.upload.max_mb)\n"))
        #expect(result.stdout.hasSuffix(", 0 errors, 1 warning\n"))
    }

    @Test func quotedContextValuesStayText() throws {
        let project = TestProject()
        project.write("flags/z.yaml", """
            flags:
              local:
                type: bool
                default: false
                rules:
                  - when: [{ attribute: zip, equals: "01234" }]
                    serve: true
            """)
        #expect(try runSwitchboard(["get", "--flags", project.flags, "local", "--context", "zip=01234"]).stdout == "false\n")
        #expect(try runSwitchboard(["get", "--flags", project.flags, "local", "--context", "zip=\"01234\""]).stdout == "true\n")
    }

    @Test(arguments: ["plan", "=pro"])
    func aContextAttributeWithoutANameIsAUsageError(attribute: String) throws {
        let project = makeProject()
        let result = try runSwitchboard(["get", "--flags", project.flags, "app.theme", "--context", attribute])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--context takes key=value, not '\(attribute)'"))
    }

    @Test func usageErrorExitsTwo() throws {
        #expect(try runSwitchboard(["reset"]).status == 2)
        #expect(try runSwitchboard(["frobnicate"]).status == 2)
    }

    @Test func unknownCommandSuggestsTheNearest() throws {
        let result = try runSwitchboard(["sett", "app.theme", "dark"])
        #expect(result.status == 2)
        #expect(result.stderr == "error: unknown command 'sett'\n"
            + "  hint: did you mean 'set'? (switchboard help lists the commands)\n")
        let far = try runSwitchboard(["frobnicate"])
        #expect(far.stderr == "error: unknown command 'frobnicate'\n  hint: switchboard help lists the commands\n")
        // The same for help's argument, which ArgumentParser answered with the overview and status 0.
        let help = try runSwitchboard(["help", "valdate"])
        #expect(help.status == 2)
        #expect(help.stderr == "error: unknown command 'valdate'\n"
            + "  hint: did you mean 'validate'? (switchboard help lists the commands)\n")
        #expect(try runSwitchboard(["help", "validate"]).status == 0)
        // Another tool's word for one of ours: `unset` is as near `set` as `reset` by spelling.
        #expect(try runSwitchboard(["unset", "app.theme"]).stderr == "error: unknown command 'unset'\n"
            + "  hint: did you mean 'reset'? (switchboard help lists the commands)\n")
    }

    @Test func setGetExplainResetRoundTrip() throws {
        let project = makeProject()
        #expect(try runSwitchboard(["set", "--flags", project.flags, "app.upload.max_mb", "100", "--actor", "alice"]).status == 0)
        #expect(try runSwitchboard(["get", "--flags", project.flags, "app.upload.max_mb"]).stdout == "100\n")
        let explain = try runSwitchboard(["explain", "--flags", project.flags, "app.upload.max_mb"],
                                         environment: ["SWITCHBOARD_APP__UPLOAD__MAX_MB": "50"])
        #expect(explain.stdout.contains("runtime  100"))
        #expect(explain.stdout.contains("set by alice"))
        #expect(explain.stdout.contains("env      50             SWITCHBOARD_APP__UPLOAD__MAX_MB=50  (shadowed)"))
        #expect(explain.stdout.contains("value: 100 from the runtime layer"))
        let refused = try runSwitchboard(["set", "--flags", project.flags, "app.upload.max_mb", "9000"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("9000 is above the maximum 500"))
        #expect(try runSwitchboard(["reset", "--flags", project.flags, "app.upload.max_mb"]).status == 0)
        let json = try runSwitchboard(["get", "--json", "--flags", project.flags, "app.upload.max_mb"])
        #expect(try Value(json: json.stdout).objectValue?["layer"] == "default")
    }

    @Test func aValueOfTheWrongTypeIsRefusedWithTheKeysType() throws {
        let project = makeProject()
        let refused = try runSwitchboard(["set", "--flags", project.flags, "app.upload.max_mb", "abc"])
        #expect(refused.status == 1)
        #expect(refused.stderr == """
            error: refused value for app.upload.max_mb: expected an int, found the string "abc"; nothing was written
              hint: app.upload.max_mb is an int

            """)
    }

    @Test func listShowsResolvedValuesAndFiltersByGlob() throws {
        let project = makeProject()
        let result = try runSwitchboard(["list", "--flags", project.flags, "app.upload.*"],
                                        environment: ["SWITCHBOARD_APP__UPLOAD__MAX_MB": "7"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[1].contains("app.upload.max_mb") && lines[1].contains("  7  ") && lines[1].contains("env"))
    }

    // As in the REPL: without a wildcard the pattern is a key or a namespace, and one that matches nothing says so.
    @Test func listTakesANamespaceAndSaysWhenNothingMatches() throws {
        let project = makeProject()
        let prefix = try runSwitchboard(["list", "--flags", project.flags, "app.stress"])
        #expect(prefix.status == 0)
        #expect(prefix.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: " ").first } == [
            "app.stress.a", "app.stress.b",
        ])
        let exact = try runSwitchboard(["list", "--flags", project.flags, "app.stress.a"])
        #expect(exact.stdout.split(separator: "\n").count == 2)
        let none = try runSwitchboard(["list", "--flags", project.flags, "app.colr*"])
        #expect(none.status == 1)
        #expect(none.stderr == "error: no key matches 'app.colr*'\n  hint: did you mean 'app.color'?\n")
        // Not a prefix of a segment: `app.stres` is neither a key nor a namespace; the nearest namespace is named.
        let namespace = try runSwitchboard(["list", "--flags", project.flags, "app.stres"])
        #expect(namespace.status == 1)
        #expect(namespace.stderr.contains("hint: did you mean 'app.stress'"), "\(namespace.stderr)")
        // A key without its namespace is too far for a typo, and named all the same.
        let tail = try runSwitchboard(["list", "--flags", project.flags, "color"])
        #expect(tail.status == 1)
        #expect(tail.stderr.contains("hint: did you mean 'app.color'"), "\(tail.stderr)")
        let unknown = try runSwitchboard(["get", "--flags", project.flags, "color"])
        #expect(unknown.stderr.contains("did you mean 'app.color'"), "\(unknown.stderr)")
        // A script asking for JSON gets an empty list.
        let json = try runSwitchboard(["list", "--flags", project.flags, "--json", "app.colr*"])
        #expect(json.status == 0)
        #expect(json.stdout == "[]\n")
    }

    @Test func unknownKeyExitsOneWithSuggestion() throws {
        let project = makeProject()
        let result = try runSwitchboard(["get", "--flags", project.flags, "app.new_flw"])
        #expect(result.status == 1)
        #expect(result.stderr == "error: unknown key 'app.new_flw'\n  hint: did you mean 'app.new_flow'?\n")
    }

    @Test func exampleFlagsValidate() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../flags")
        let result = try runSwitchboard(["validate", "--flags", root.standardizedFileURL.path])
        #expect(result.status == 0, "\(result.stdout)")
    }
}
