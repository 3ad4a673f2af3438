import Testing

@testable import Switchboard

/// Semantic versions as flagd's `sem_ver` reads and compares them.
struct SemVerTests {
    @Test(arguments: [
        ("1.2.3", SemanticVersion(major: 1, minor: 2, patch: 3)),
        ("v1.2.3", SemanticVersion(major: 1, minor: 2, patch: 3)),
        ("V1.2.3", SemanticVersion(major: 1, minor: 2, patch: 3)),
        ("1", SemanticVersion(major: 1)),
        ("1.2", SemanticVersion(major: 1, minor: 2)),
        ("0.0.0", SemanticVersion(major: 0)),
        ("1.0.0-alpha.1", SemanticVersion(major: 1, prerelease: [.alphanumeric("alpha"), .numeric(1)])),
        ("1.0.0-0.3.7", SemanticVersion(major: 1, prerelease: [.numeric(0), .numeric(3), .numeric(7)])),
        ("1.0.0-x-y.z--", SemanticVersion(major: 1, prerelease: [.alphanumeric("x-y"), .alphanumeric("z--")])),
        ("1.0.0+build.5", SemanticVersion(major: 1, build: ["build", "5"])),
        ("1.0.0-rc.1+exp.sha.5114f85", SemanticVersion(
            major: 1, prerelease: [.alphanumeric("rc"), .numeric(1)], build: ["exp", "sha", "5114f85"])),
    ])
    func parses(_ text: String, _ expected: SemanticVersion) throws {
        let version = try #require(SemanticVersion(text))
        #expect(version == expected)
        #expect(version.build == expected.build)
    }

    @Test(arguments: [
        "", "v", "a.b.c", "1.", "1..2", "1.2.3.4", "01.2.3", "1.02.3", "1.2.03", "1.2-beta", "1-beta", "1.2+b",
        "1.2.3-", "1.2.3-01", "1.2.3-a..b", "1.2.3+", "1.2.3+a_b", " 1.2.3", "1.2.3 ", "vv1.2.3",
        "99999999999999999999.0.0",
    ])
    func rejects(_ text: String) {
        #expect(SemanticVersion(text) == nil)
    }

    /// The precedence chain from the semver 2.0.0 specification, each lower than the next.
    @Test func precedence() throws {
        let chain = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
                     "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1", "1.1.0", "1.10.0", "2.0.0"]
        let versions = try chain.map { try #require(SemanticVersion($0)) }
        for (lower, higher) in zip(versions, versions.dropFirst()) {
            #expect(lower < higher, "\(lower) < \(higher)")
            #expect(!(higher < lower))
        }
    }

    @Test func buildMetadataIsIgnored() throws {
        let a = try #require(SemanticVersion("1.0.0+build"))
        let b = try #require(SemanticVersion("1.0.0+other"))
        #expect(a == b)
        #expect(!(a < b) && !(b < a))
        #expect(Set([a, b]).count == 1)
    }

    @Test(arguments: [
        ("2.0.0", "=", "2.0.0", true), ("2.0.0", "=", "v2.0", true), ("2.0.0-alpha", "<", "2.0.0", true),
        ("2.1.0", ">", "2.0.0", true), ("1.9.0", ">=", "2.0.0", false), ("1.9.0", "<=", "1.9.0", true),
        ("1.9.0", "!=", "1.9.1", true), ("3.0.1", "~", "3.0.0", true), ("3.1.0", "~", "3.0.0", false),
        ("3.1.0", "^", "3.0.0", true), ("4.0.0", "^", "3.0.0", false), ("0.2.0", "^", "0.1.0", true),
        ("1.0.0+build", "=", "1.0.0+other", true),
    ])
    func operators(_ lhs: String, _ op: String, _ rhs: String, _ expected: Bool) throws {
        let l = try #require(SemanticVersion(lhs))
        let r = try #require(SemanticVersion(rhs))
        let operation = try #require(SemanticVersion.Operator(rawValue: op))
        #expect(operation.holds(l, r) == expected)
    }

    /// Numbers in the context are read as JavaScript prints them, as flagd does.
    @Test(arguments: [
        (Value.int(1), "1.0.0"), (.double(1.0), "1.0.0"), (.double(1.2), "1.2.0"), (.int(2), "2.0.0"),
        (.string("1.2"), "1.2.0"),
    ])
    func numericValues(_ value: Value, _ expected: String) throws {
        #expect(SemanticVersion(value: value) == SemanticVersion(expected))
    }

    @Test func nonVersionValuesAreRejected() {
        #expect(SemanticVersion(value: .double(1.25e30)) == nil)
        #expect(SemanticVersion(value: true) == nil)
        #expect(SemanticVersion(value: .null) == nil)
        #expect(SemanticVersion(value: ["major": 1]) == nil)
    }

    @Test func descriptionIsNormalized() throws {
        #expect(try #require(SemanticVersion("v1.2")).description == "1.2.0")
        #expect(try #require(SemanticVersion("1.0.0-rc.1+b.2")).description == "1.0.0-rc.1+b.2")
    }

    /// `sem_ver` gives null, not false, for what it cannot compare, so the flag serves its default variant.
    @Test(arguments: [
        #"{"sem_ver": [{"var": "v"}, "=", "1.0.0"]}"#,
        #"{"sem_ver": ["1.0.0", "===", "1.0.0"]}"#,
        #"{"sem_ver": ["1.0.0", "="]}"#,
        #"{"sem_ver": [true, "=", "1.0.0"]}"#,
        #"{"sem_ver": ["1.0.0", {"var": "op"}, "1.0.0"]}"#,
    ])
    func operationGivesNullWhenItCannotCompare(_ rule: String) throws {
        let result = try JSONLogic(Value(json: rule)).apply(to: ["v": "not-a-version", "op": "=~"])
        #expect(result == .null)
    }
}
