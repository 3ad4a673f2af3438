/// The documentation articles that commands' help points to, by the title each has in its DocC catalog.
///
/// One list, so that `switchboard help COMMAND` and the articles stay in step: a test checks that every article
/// named here exists at its ``path`` and that every subcommand's help names one.
public enum Article: String, CaseIterable, Sendable {
    case gettingStarted = "Switchboard/Documentation.docc/GettingStarted.md"
    case yamlFormat = "Switchboard/Documentation.docc/YAMLFormat.md"
    case diagnostics = "Switchboard/Documentation.docc/Diagnostics.md"
    case layers = "Switchboard/Documentation.docc/LayersAndPrecedence.md"
    case targeting = "Switchboard/Documentation.docc/TargetingAndRollouts.md"
    case flagd = "Switchboard/Documentation.docc/FlagdFiles.md"
    case stores = "Switchboard/Documentation.docc/Stores.md"
    case commandLine = "Switchboard/Documentation.docc/CommandLine.md"
    case repl = "Switchboard/Documentation.docc/DebugREPL.md"
    case typedKeys = "Switchboard/Documentation.docc/TypedKeys.md"
    case reviewing = "Switchboard/Documentation.docc/ReviewingFlagChanges.md"
    case retiring = "Switchboard/Documentation.docc/RetiringFlags.md"
    case server = "SwitchboardServer/Documentation.docc/RunningTheServer.md"
    case access = "SwitchboardServer/Documentation.docc/WhoMayChangeWhat.md"

    /// The article's title, as its catalog shows it.
    public var title: String {
        switch self {
        case .gettingStarted: "Getting started"
        case .yamlFormat: "The YAML format"
        case .diagnostics: "Diagnostics"
        case .layers: "Layers and precedence"
        case .targeting: "Targeting and rollouts"
        case .flagd: "flagd files"
        case .stores: "Stores: file and PostgreSQL"
        case .commandLine: "The command line"
        case .repl: "The debug REPL"
        case .typedKeys: "Typed keys"
        case .reviewing: "Reviewing flag changes"
        case .retiring: "Retiring flags"
        case .server: "Running the server"
        case .access: "Who may change what"
        }
    }

    /// The article's file, relative to the package's `Sources/` folder.
    public var path: String { rawValue }

    /// The module whose documentation holds the article.
    public var module: String { String(rawValue.prefix { $0 != "/" }) }

    /// The paragraph a command's help ends with, naming its articles:
    /// `Read more: "Layers and precedence" (Switchboard documentation).`
    public static func readMore(_ articles: Article...) -> String {
        "Read more: " + articles.map { "\"\($0.title)\" (\($0.module) documentation)" }.joined(separator: ", ") + "."
    }
}
