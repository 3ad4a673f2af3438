import Testing
@testable import Switchboard
import SwitchboardTestSupport

/// `validate`'s check of the environment: a `SWITCHBOARD_…` variable that overrides no key is named, with the
/// nearest key's variable; one whose value does not parse or fit its key is named as every lookup skips it;
/// Switchboard's own variables never are; a key whose variable is one of them is refused.
struct EnvironmentVariableCheckTests {
    let project = makeProject()

    static func definition(_ key: String) -> String {
        "flags:\n  \(key): { type: bool, default: false }\n"
    }

    private func warnings(_ environment: [String: String]) -> [String] {
        BoardInputs(directory: project.flags, environment: environment).validationDiagnostics().diagnostics
            .map(\.description)
    }

    @Test func aMisspeltVariableIsNamedWithTheNearestKey() {
        #expect(warnings(["SWITCHBOARD_APP__UPLOAD_MAX_MB": "50", "SWITCHBOARD_APP__THEME": "dark"]) == [
            "warning: SWITCHBOARD_APP__UPLOAD_MAX_MB is set but overrides no key\n"
                + "  hint: did you mean 'SWITCHBOARD_APP__UPLOAD__MAX_MB'? (the variable of app.upload.max_mb)",
        ])
    }

    // What `get` and `explain` warn about when they skip the variable, `validate` reports before a deploy does.
    @Test func aValueThatDoesNotFitItsKeyIsNamed() {
        #expect(warnings([
            "SWITCHBOARD_APP__EXPRESS_PAY": "yes", "SWITCHBOARD_APP__UPLOAD__MAX_MB": "5000",
            "SWITCHBOARD_APP__THEME": "dark",
        ]) == [
            "warning: SWITCHBOARD_APP__EXPRESS_PAY skipped: expected a bool, found the string \"yes\"\n"
                + "  hint: write true (only true and false are booleans in YAML 1.2)",
            "warning: SWITCHBOARD_APP__UPLOAD__MAX_MB skipped: 5000 is above the maximum 500 of app.upload.max_mb\n"
                + "  hint: allowed range: 1 to 500",
        ])
    }

    @Test func aVariableFarFromEveryKeyGetsTheRule() {
        #expect(warnings(["SWITCHBOARD_BILLING__PLAN_NAME": "pro"]) == [
            "warning: SWITCHBOARD_BILLING__PLAN_NAME is set but overrides no key\n"
                + "  hint: a key's variable is SWITCHBOARD_ and the key in upper case, with . as __ and - as _",
        ])
    }

    @Test(arguments: [
        "SWITCHBOARD_ACTOR", "SWITCHBOARD_ADMIN_TOKEN", "SWITCHBOARD_BIN", "SWITCHBOARD_ENV", "SWITCHBOARD_READ_TOKEN",
        "SWITCHBOARD_REPL_HISTORY", "SWITCHBOARD_SCOPE", "SWITCHBOARD_STATE", "SWITCHBOARD_STATE_COMPACTION_BYTES",
        "SWITCHBOARD_STORE", "SWITCHBOARD_UPDATE_GOLDEN", "SWITCHBOARD_TEST_POSTGRES_URL", "SWITCHBOARD_TEST_ANYTHING",
    ])
    func switchboardsOwnVariablesAreNeverOverrides(variable: String) {
        // SWITCHBOARD_ENV names an environment whose file must exist: an empty name selects none.
        let value = variable == "SWITCHBOARD_ENV" ? "" : "x"
        #expect(warnings([variable: value]).isEmpty)
    }

    @Test(arguments: [
        ("env", "SWITCHBOARD_ENV"), ("state-compaction-bytes", "SWITCHBOARD_STATE_COMPACTION_BYTES"),
        ("admin_token", "SWITCHBOARD_ADMIN_TOKEN"), ("test_mode", "SWITCHBOARD_TEST_MODE"),
    ])
    func aKeyWhoseVariableIsSwitchboardsOwnIsAnError(key: String, variable: String) {
        let report = DefinitionLoader.load(sources: [("a.yaml", Array(Self.definition(key).utf8))])
        #expect(report.errors.map(\.description) == [
            "a.yaml:2:3: error: \(key) maps to \(variable), one of Switchboard's own variables\n"
                + "  hint: rename the key, or give its file a namespace",
        ])
        #expect(report.registry.count == 0)
    }

    // A `test` namespace is fine: `test.postgres_url` is SWITCHBOARD_TEST__POSTGRES_URL, with the namespace's `__`.
    @Test(arguments: ["environment", "app.env", "tests.x", "stored", "test.postgres_url", "test.x"])
    func keysNearThemAreFine(key: String) {
        let report = DefinitionLoader.load(sources: [("a.yaml", Array(Self.definition(key).utf8))])
        #expect(report.errors.isEmpty)
    }

    // The loader finds the reserved keys while it reads each file, and checks them in order once the files are
    // joined: a key dropped before one (here a duplicate) must not hide it, in its own file or a later one.
    @Test func everyReservedKeyIsFoundPastKeysDroppedBeforeIt() {
        let report = DefinitionLoader.load(sources: [
            ("a.yaml", Array("flags:\n  shared: { type: bool, default: false }\n  admin_token: { type: bool, default: false }\n".utf8)),
            ("b.yaml", Array("flags:\n  shared: { type: bool, default: true }\n  env: { type: bool, default: false }\n  kept: { type: bool, default: false }\n".utf8)),
        ])
        #expect(report.errors.map(\.description) == [
            "a.yaml:3:3: error: admin_token maps to SWITCHBOARD_ADMIN_TOKEN, one of Switchboard's own variables\n"
                + "  hint: rename the key, or give its file a namespace",
            "b.yaml:2:3: error: shared is already defined at a.yaml:2:3\n"
                + "  hint: a key is defined once across all files; rename or remove one of them",
            "b.yaml:3:3: error: env maps to SWITCHBOARD_ENV, one of Switchboard's own variables\n"
                + "  hint: rename the key, or give its file a namespace",
        ])
        #expect(report.registry.keys == ["shared", "kept"])
    }
}
