import Testing
@testable import SwitchboardREPL

struct CommandParserTests {
    @Test(arguments: [
        ("list", Command.list(pattern: nil)),
        ("list checkout.*", .list(pattern: "checkout.*")),
        ("get app.theme", .get(key: "app.theme")),
        ("explain app.theme", .explain(key: "app.theme")),
        ("explain app.theme --at 2026-12-01T10:00:00+01:00", .explain(key: "app.theme", at: 1_796_115_600)),
        ("get app.theme --at 2026-12-01T10:00:00+01:00", .get(key: "app.theme", at: 1_796_115_600)),
        ("set app.theme dark", .set(key: "app.theme", value: "dark")),
        (#"set app.motd "hello world""#, .set(key: "app.motd", value: "hello world")),
        ("set app.motd hello   world", .set(key: "app.motd", value: "hello   world")),
        ("set app.ports [80, 443]", .set(key: "app.ports", value: "[80, 443]")),
        (#"set app.obj {"a":1}"#, .set(key: "app.obj", value: #"{"a":1}"#)),
        (#"set app.obj '{"a": 1}'"#, .set(key: "app.obj", value: #"{"a": 1}"#)),
        ("toggle app.new_flow", .toggle(key: "app.new_flow")),
        ("reset app.theme", .reset(key: "app.theme")),
        ("reset --all", .resetAll),
        ("context", .showContext),
        ("context clear", .clearContext([])),
        ("context clear plan", .clearContext(["plan"])),
        (#"context plan=pro n="42""#, .setContext([
            .init(name: "plan", text: "pro", isQuoted: false), .init(name: "n", text: "42", isQuoted: true),
        ])),
        ("changed", .changed),
        ("log", .log(count: Command.defaultLogCount)),
        ("log 5", .log(count: 5)),
        ("reload", .reload),
        ("help", .help(topic: nil)),
        ("help set", .help(topic: "set")),
        ("quit", .quit),
        ("exit", .quit),
    ])
    func parses(line: String, command: Command) throws {
        #expect(try CommandParser.parse(line) == command)
    }

    @Test func blankLinesAndCommentsAreNothing() throws {
        #expect(try CommandParser.parse("") == nil)
        #expect(try CommandParser.parse("   ") == nil)
        #expect(try CommandParser.parse("# set up the demo") == nil)
    }

    @Test(arguments: [
        ("lsit", "unknown command 'lsit'", "did you mean 'list'? (help lists the commands)"),
        ("frobnicate", "unknown command 'frobnicate'", "help lists the commands"),
        // Two edits in three letters is another word: `foo` is not `log`.
        ("foo", "unknown command 'foo'", "help lists the commands"),
        ("lg", "unknown command 'lg'", "did you mean 'log'? (help lists the commands)"),
        ("get", "get needs a KEY", "usage: get KEY [--at TIME]"),
        ("get a b", "get takes one KEY", "usage: get KEY [--at TIME]"),
        ("explain a --at 2026-12-01T09:00:00",
         "--at needs a time zone: '2026-12-01T09:00:00' has none (add Z for UTC, or an offset such as +01:00)",
         "usage: explain KEY [--at TIME]"),
        ("set app.theme", "set needs a VALUE after the key", "usage: set [--for DURATION | --until TIME] KEY VALUE"),
        ("set", "set needs a KEY and a VALUE", "usage: set [--for DURATION | --until TIME] KEY VALUE"),
        ("reset app.theme --all", "reset takes either a KEY or --all", "usage: reset KEY | --all"),
        ("log zero", "'zero' is not a positive number", "usage: log [N]"),
        ("log 0", "'0' is not a positive number", "usage: log [N]"),
        ("changed now", "changed takes no arguments", "usage: changed"),
        ("context plan", "expected NAME=VALUE, found 'plan'", "usage: context [NAME=VALUE… | clear]"),
        ("context =x", "expected NAME=VALUE, found '=x'", "usage: context [NAME=VALUE… | clear]"),
        (#"set app.motd "open"#, "unterminated \" quote", "close it with another \""),
    ])
    func explainsWhatIsWrong(line: String, message: String, hint: String) {
        #expect(throws: CommandError(message: message, hint: hint)) { try CommandParser.parse(line) }
    }

    @Test func everyCommandHasHelp() {
        for info in CommandInfo.all {
            #expect(!info.summary.isEmpty && !info.details.isEmpty, "\(info.name)")
            #expect(info.summary.count < 80, "\(info.name)'s summary fits a line")
        }
        #expect(Set(CommandInfo.names).count == CommandInfo.names.count)
    }
}
