import Foundation
import SwitchboardServer
import SwitchboardTestSupport
import Testing

@Suite struct AccessTokenTests {
    @Test func matchesOnlyTheExactToken() throws {
        let token = try #require(AccessToken("s3cret"))
        #expect(token.matches("s3cret"))
        #expect(!token.matches("s3cre"))
        #expect(!token.matches("s3cret!"))
        #expect(!token.matches("S3cret"))
        #expect(!token.matches(""))
    }

    @Test func trimsWhitespaceAndRefusesEmptyTokens() throws {
        #expect(try #require(AccessToken("  abc\n")).matches("abc"))
        #expect(AccessToken("") == nil)
        #expect(AccessToken(" \n\t") == nil)
    }

    @Test func neverPrintsTheSecret() throws {
        let token = try #require(AccessToken("s3cret"))
        #expect(token.description == "<redacted>")
        #expect(!"\(token)".contains("s3cret"))
    }

    @Test func loadsFromAFileBeforeTheEnvironment() throws {
        let project = TestProject(fixture: "flags")
        project.write("token", "from-file\n")
        let fromFile = try AccessToken.load(file: project.path + "/token", environmentVariable: "TOKEN",
                                            environment: ["TOKEN": "from-env"])
        #expect(fromFile?.matches("from-file") == true)
        let fromEnvironment = try AccessToken.load(file: nil, environmentVariable: "TOKEN",
                                                   environment: ["TOKEN": "from-env"])
        #expect(fromEnvironment?.matches("from-env") == true)
        #expect(try AccessToken.load(file: nil, environmentVariable: "TOKEN", environment: [:]) == nil)
        #expect(try AccessToken.load(file: nil, environmentVariable: "TOKEN", environment: ["TOKEN": ""]) == nil)
    }

    @Test func refusesAMissingOrEmptyTokenFile() {
        let project = TestProject(fixture: "flags")
        project.write("empty", "\n")
        #expect(throws: AccessToken.LoadError.self) {
            try AccessToken.load(file: project.path + "/missing", environmentVariable: "T", environment: [:])
        }
        #expect(throws: AccessToken.LoadError.self) {
            try AccessToken.load(file: project.path + "/empty", environmentVariable: "T", environment: [:])
        }
    }
}
