import Foundation
import Switchboard
import SwitchboardTerminal
import SwitchboardTestSupport
import Testing
@testable import SwitchboardREPL

/// A session driven directly, one command line at a time, on a board over the fixture project.
struct SessionTests {
    let project = replProject()

    @Test func getShowsTheValueAndWhereItComesFrom() throws {
        let session = try project.session()
        #expect(session.execute("get app.theme") == .init(output: "app.theme = system (default)\n"))
        #expect(session.execute("get app.button_color").output
            == "app.button_color = blue (default, variant control)\n")
    }

    @Test func unknownKeysSuggestTheNearest() throws {
        let session = try project.session()
        for line in ["get app.them", "explain app.them", "set app.them dark", "toggle app.them", "reset app.them"] {
            let reply = session.execute(line)
            #expect(!reply.succeeded, "\(line)")
            #expect(reply.errors == "error: unknown key 'app.them'\n  hint: did you mean 'app.theme'?\n", "\(line)")
        }
        #expect(session.execute("get zzz").errors
            == "error: unknown key 'zzz'\n  hint: list the keys to see which are defined\n")
    }

    @Test func setPersistsAndRefusesWhatDoesNotFit() throws {
        let session = try project.session()
        #expect(session.execute("set app.theme dark") == .init(output: "app.theme = dark (runtime)\n"))
        #expect(session.execute("set app.motd \"hello world\"").output == "app.motd = hello world (runtime)\n")
        #expect(session.execute("set app.ports [8080, 8443]").output == "app.ports = [8080,8443] (runtime)\n")
        // A variant's name stands for its value.
        #expect(session.execute("set app.button_color treatment").output
            == "app.button_color = green (runtime, variant treatment)\n")
        let stored = try #require(project.read(".switchboard/overrides.json"))

        let refusals: [(String, String)] = [
            ("set app.theme nope", """
                error: refused value for app.theme: nope is not an allowed value of app.theme; nothing was written
                  hint: allowed values: system, light, dark

                """),
            ("set app.upload.max_mb 900", """
                error: refused value for app.upload.max_mb: 900 is above the maximum 500 of app.upload.max_mb; \
                nothing was written
                  hint: allowed range: 1 to 500

                """),
            ("set app.upload.max_mb lots", """
                error: refused value for app.upload.max_mb: expected an int, found the string "lots"; nothing was written
                  hint: app.upload.max_mb is an int

                """),
            ("set app.new_flow yes", """
                error: refused value for app.new_flow: expected a bool, found the string "yes"; nothing was written
                  hint: write true (only true and false are booleans in YAML 1.2)

                """),
            ("set app.region EU", """
                error: refused value for app.region: "EU" does not match the pattern of app.region; nothing was written
                  hint: pattern: [a-z]+-[a-z]+

                """),
        ]
        for (line, errors) in refusals {
            #expect(session.execute(line) == .init(errors: errors, succeeded: false))
        }
        // Nothing was written by the refusals.
        #expect(project.read(".switchboard/overrides.json") == stored)
        #expect(session.execute("get app.theme").output == "app.theme = dark (runtime)\n")
        // Another board on the same store sees the overrides: they are persisted.
        #expect(try project.board().resolve("app.theme").value == "dark")
    }

    @Test func toggleFlipsBoolsOnly() throws {
        let session = try project.session()
        #expect(session.execute("toggle app.new_flow").output == "app.new_flow = true (runtime)\n")
        #expect(session.execute("toggle app.new_flow").output == "app.new_flow = false (runtime)\n")
        #expect(session.execute("toggle app.dark_mode").output == "app.dark_mode = false (runtime)\n")
        #expect(session.execute("toggle app.theme") == .init(errors: """
            error: app.theme is a string, not a bool; only bool keys toggle
              hint: set app.theme VALUE

            """, succeeded: false))
    }

    @Test func resetFallsBackToTheNextLayer() throws {
        let session = try project.session()
        _ = session.execute("set app.theme dark")
        #expect(session.execute("reset app.theme").output == "app.theme = system (default)\n")
        #expect(session.execute("reset app.theme") == .init(
            output: "app.theme has no runtime override; it is system (default)\n"))
    }

    @Test func resetAllAsksWhenItCanAndOnlyGoesAheadOnYes() throws {
        let session = try project.session()
        #expect(session.execute("reset --all").output == "there are no runtime overrides\n")
        _ = session.execute("set app.theme dark")
        _ = session.execute("toggle app.new_flow")
        var questions: [String] = []
        session.confirm = { question in
            questions.append(question)
            return false
        }
        #expect(session.execute("reset --all").output == "nothing was removed\n")
        #expect(questions == ["Remove the runtime overrides of app.new_flow, app.theme? [y/N] "])
        session.confirm = { _ in true }
        #expect(session.execute("reset --all").output == """
            removed 2 runtime overrides
              app.new_flow changed: true → false (default)
              app.theme changed: dark → system (default)

            """)
        #expect(try project.board().snapshot.entries.allSatisfy { $0.contextFree.layer == .default })
    }

    @Test func listFiltersByGlobOrPrefix() throws {
        let session = try project.session()
        _ = session.execute("set app.upload.max_mb 100")
        #expect(session.execute("list app.upload.*").output == """
            KEY                 TYPE    VALUE  LAYER
            app.upload.max_mb   int     100    runtime
            app.upload.timeout  double  2.5    default

            """)
        #expect(session.execute("list checkout.").output.split(separator: "\n").count == 4)
        #expect(session.execute("list *.new_flow").output.contains("checkout.new_flow"))
        #expect(session.execute("list").output.split(separator: "\n").count == 1 + 12)
        #expect(session.execute("list nothing.*") == .init(
            errors: "error: no key matches 'nothing.*'\n  hint: `list` with no pattern shows every key\n",
            succeeded: false))
    }

    @Test func explainShowsEveryLayer() throws {
        let session = try project.session()
        _ = session.execute("set app.upload.max_mb 100")
        let output = withoutTimes(session.execute("explain app.upload.max_mb").output)
        #expect(output == """
            app.upload.max_mb (preference, int)
              runtime  100            set by tester at <time> (file store, version 1)  ← wins
              env      —              SWITCHBOARD_APP__UPLOAD__MAX_MB not set
              file     —              no override file sets it
              default  25             \(project.flags)/app.yaml:24:14  (shadowed)
            value: 100 from the runtime layer

            """)
    }

    @Test func contextChangesWhatTargetedKeysResolveTo() throws {
        let session = try project.session()
        #expect(session.execute("context").output
            == "the context is empty; set attributes with `context NAME=VALUE`\n")
        #expect(session.execute("get checkout.pro_badge").output
            == "checkout.pro_badge = false (default, no rule matched)\n")
        #expect(session.execute("context plan=pro seats=42 ratio=1.5 beta=true code=\"42\" targetingKey=user-1")
            .output == """
            targetingKey = "user-1"
            beta = true
            code = "42"
            plan = "pro"
            ratio = 1.5
            seats = 42

            """)
        #expect(session.context.attributes["seats"] == 42)
        #expect(session.execute("get checkout.pro_badge").output
            == "checkout.pro_badge = true (default, targeting match)\n")
        #expect(session.execute("explain checkout.pro_badge").output.contains("for the context targetingKey=user-1"))
        #expect(session.prompt == "switchboard[user-1]> ")
        #expect(session.execute("context clear plan seats").output.contains("plan") == false)
        #expect(session.execute("context clear seats") == .init(
            errors: "error: the context has no 'seats'\n  hint: it has targetingKey, beta, code, ratio\n",
            succeeded: false))
        #expect(session.execute("context clear").output == "the context is empty\n")
        #expect(session.context.isEmpty)
        #expect(session.prompt == "switchboard> ")
    }

    @Test func changedListsEveryValueThatIsNotItsDefault() throws {
        let session = try project.session()
        #expect(session.execute("changed").output == "every key has its default value\n")
        _ = session.execute("set app.theme dark")
        _ = session.execute("context plan=pro")
        let output = withoutTimes(session.execute("changed").output)
        #expect(output == """
            KEY                 DEFAULT  VALUE  LAYER    ORIGIN
            app.theme           system   dark   runtime  set by tester at <time> (file store, version 1)
            checkout.pro_badge  false    true   default  targeting match

            """)
    }

    @Test func logShowsTheAuditTrail() throws {
        let session = try project.session()
        #expect(session.execute("log").output == "no changes have been recorded\n")
        _ = session.execute("set app.theme dark")
        _ = session.execute("set app.theme light")
        _ = session.execute("reset app.theme")
        #expect(withoutTimes(session.execute("log").output) == """
            TIME                      ACTOR                KEY        CHANGE
            <time>  tester (unverified)  app.theme  (none) → dark
            <time>  tester (unverified)  app.theme  dark → light
            <time>  tester (unverified)  app.theme  light → (none)

            """)
        #expect(session.execute("log 1").output.split(separator: "\n").count == 2)
    }

    @Test func reloadKeepsTheLastGoodDefinitionsWhenAnEditBreaksThem() throws {
        let session = try project.session()
        let good = try #require(project.read("flags/app.yaml"))
        project.write("flags/app.yaml", good.replacing("default: 25", with: "default: lots"))
        let broken = session.execute("reload")
        #expect(!broken.succeeded)
        #expect(broken.errors.contains("\(project.flags)/app.yaml:24:14: error:"))
        #expect(broken.errors.hasSuffix(
            "1 error in the definitions; still using the last good definitions (12 keys)\n"))
        #expect(session.execute("get app.upload.max_mb").output == "app.upload.max_mb = 25 (default)\n")

        project.write("flags/app.yaml", good.replacing("default: 25", with: "default: 30"))
        let fixed = session.execute("reload")
        #expect(fixed == .init(output: """
            reloaded 12 definitions from 2 files
              app.upload.max_mb changed: 25 → 30 (default)

            """))
    }

    @Test func helpListsAndDescribesCommands() throws {
        let session = try project.session()
        let listing = session.execute("help").output
        for info in CommandInfo.all { #expect(listing.contains("  \(info.usage)"), "\(info.name)") }
        let set = session.execute("help set").output
        #expect(set.hasPrefix("usage: set [--for DURATION | --until TIME] KEY VALUE\n\n"
            + "Set a runtime override (checked, persisted).\n\n"))
        #expect(session.execute("help sett") == .init(
            errors: "error: no command 'sett'\n  hint: did you mean 'set'?\n", succeeded: false))
    }

    @Test func quitEndsAndBadInputDoesNot() throws {
        let session = try project.session()
        #expect(session.execute("quit").endsSession)
        #expect(session.execute("exit").endsSession)
        let unknown = session.execute("lsit")
        #expect(unknown == .init(
            errors: "error: unknown command 'lsit'\n  hint: did you mean 'list'? (help lists the commands)\n",
            succeeded: false))
        #expect(session.execute("") == .init())
    }

    @Test func changesMadeElsewhereAreReportedOnce() throws {
        let session = try project.session()
        #expect(session.changesMadeElsewhere() == .init())
        let other = try project.board()
        try other.set("app.theme", to: "dark", actor: "bob")
        #expect(session.changesMadeElsewhere().output
            == "* app.theme changed: system → dark (runtime, set by bob)\n")
        #expect(session.changesMadeElsewhere() == .init())
        // The session's own changes are not news.
        _ = session.execute("set app.upload.max_mb 7")
        #expect(session.changesMadeElsewhere() == .init())
        try other.reset("app.theme", actor: "bob")
        #expect(session.changesMadeElsewhere().output == "* app.theme changed: dark → system (default)\n")
    }

    @Test func editsToTheDefinitionsAreNoticedAndABrokenOneIsToldOnce() throws {
        // A board that watches its files, as the `repl` command opens it.
        let board = try Board(inputs: BoardInputs(directory: project.flags, environment: [:]),
                              options: BoardOptions(pollInterval: nil))
        let session = Session(board: board, actor: "tester")
        let good = try #require(project.read("flags/app.yaml"))
        project.write("flags/app.yaml", good.replacing("default: 25", with: "default: 30"))
        #expect(session.changesMadeElsewhere() == .init(output: "* app.upload.max_mb changed: 25 → 30 (default)\n"))

        project.write("flags/app.yaml", good.replacing("default: 25", with: "default: lots"))
        let broken = session.changesMadeElsewhere()
        #expect(broken.output == "")
        #expect(broken.errors.contains("\(project.flags)/app.yaml:24:14: error:"))
        #expect(broken.errors.hasSuffix(
            "the definitions changed and have 1 error; still using the last good definitions\n"))
        #expect(session.changesMadeElsewhere() == .init(), "told once")
        #expect(session.execute("get app.upload.max_mb").output == "app.upload.max_mb = 30 (default)\n")
        // `reload` lists the problems again, on demand.
        #expect(session.execute("reload").errors.contains("app.yaml:24:14: error:"))
        #expect(session.changesMadeElsewhere() == .init())

        // Fixed: the change, and that the errors are gone, once.
        project.write("flags/app.yaml", good)
        #expect(session.changesMadeElsewhere() == .init(output: "* app.upload.max_mb changed: 30 → 25 (default)\n"
            + "* the definitions' errors are fixed; using the edited definitions (12 keys)\n"))
        #expect(session.changesMadeElsewhere() == .init(), "told once")
    }

    @Test func colourOnlyWhenTheTerminalHasIt() throws {
        let session = Session(board: try project.board(), actor: "tester", terminal: Terminal(fd: 1, colors: true))
        #expect(session.execute("get app.theme").output == "app.theme = system \u{1B}[2m(default)\u{1B}[0m\n")
        #expect(session.execute("get nope").errors.hasPrefix("\u{1B}[31merror:\u{1B}[0m unknown key"))
        #expect(try project.session().execute("list").output.contains("\u{1B}") == false)
    }

    @Test func theHistoryFileLivesBesideTheStore() throws {
        let store = FileStore(path: "/srv/app/.switchboard/overrides.json")
        #expect(REPL.historyFile(for: store, environment: [:]) == "/srv/app/.switchboard/repl_history")
        #expect(REPL.historyFile(for: store, environment: ["SWITCHBOARD_REPL_HISTORY": "/tmp/h"]) == "/tmp/h")
        #expect(REPL.historyFile(for: store, environment: ["SWITCHBOARD_REPL_HISTORY": ""]) == nil)
        #expect(REPL.historyFile(for: FileStore(path: "overrides.json"), environment: [:]) == "./repl_history")
    }
}
