import SwitchboardTestSupport
import Testing

/// `--store` takes a PostgreSQL URL: anything else is a usage error (exit status 2) that names what to write, before
/// any file or database is read; the same value from `$SWITCHBOARD_STORE` fails when the store is opened (status 1).
@Suite struct StoreOptionTests {
    @Test(arguments: ["foo", "postgres:/x", "file:", "http://example/db"])
    func aStoreThatIsNoPostgreSQLURLIsAUsageError(store: String) throws {
        let project = replProject()
        let result = try runSwitchboard(["list", "--flags", project.flags, "--store", store])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: not a PostgreSQL URL: "), "\(result.stderr)")
        #expect(result.stderr.contains("hint: write postgres://user:password@host:port/database"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func theSameValueFromTheEnvironmentFailsWhenTheStoreIsOpened() throws {
        let project = replProject()
        let result = try runSwitchboard(["list", "--flags", project.flags], environment: ["SWITCHBOARD_STORE": "foo"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("error: not a PostgreSQL URL: foo"), "\(result.stderr)")
    }
}
