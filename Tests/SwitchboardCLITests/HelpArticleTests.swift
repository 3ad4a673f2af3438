import Foundation
import SwitchboardTerminal
import SwitchboardTestSupport
import Testing

/// Every subcommand's help names the documentation article to read next, and every article it can name exists.
struct HelpArticleTests {
    /// The package's `Sources/` folder.
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources").standardizedFileURL

    @Test(arguments: Article.allCases)
    func theArticleExistsWithItsTitle(article: Article) throws {
        let url = Self.sources.appendingPathComponent(article.path)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.hasPrefix("# \(article.title)\n"), "\(article.path) should start with its title")
    }

    @Test(arguments: [
        [], ["validate"], ["list"], ["get"], ["explain"], ["set"], ["reset"], ["log"], ["store"], ["store", "export"],
        ["store", "import"], ["repl"], ["serve"], ["generate"], ["refs"], ["diff"],
    ])
    func helpNamesAnArticle(command: [String]) throws {
        let result = try runSwitchboard(["help"] + command)
        #expect(result.status == 0)
        // Help is wrapped to the terminal's width; compare with the words joined by single spaces.
        let text = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let named = Article.allCases.filter { text.contains("\"\($0.title)\" (\($0.module) documentation)") }
        #expect(!named.isEmpty, "switchboard help \(command.joined(separator: " ")) names no article")
    }
}
