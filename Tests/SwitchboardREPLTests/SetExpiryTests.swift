import Foundation
import LineEditor
import Locking
import Switchboard
@testable import SwitchboardREPL
import SwitchboardTestSupport
import Testing

/// The REPL's `set --for DURATION KEY VALUE` and `set --until TIME KEY VALUE` (the option first, since the value is
/// the rest of the line; or last, as on the command line), `toggle` with them or keeping an expiring override's, the
/// time left in `get`, `list` and `explain`, and the expiry in `log`.
struct SetExpiryTests {
    /// A clock that starts at the wall clock's time and moves only when the test moves it, and never wakes the
    /// board: these tests read the time left and the history, not the board's republishing.
    final class SteppedClock: BoardClock {
        private let seconds = Locked(SystemClock().now().rounded(.down))
        func now() -> Double { seconds.withLock { $0 } }
        func advance(by interval: Double) { seconds.withLock { $0 += interval } }
        func wake(at time: Double, _ action: @escaping @Sendable () -> Void) -> ChangeSubscription {
            ChangeSubscription {}
        }
    }

    @Test(arguments: [
        ("set --for 2h app.new_flow true", Command.set(key: "app.new_flow", value: "true",
                                                        expiry: .after(seconds: 7_200))),
        ("set --for 90s app.motd hello world",
         .set(key: "app.motd", value: "hello world", expiry: .after(seconds: 90))),
        ("set --until 2026-12-01T09:00:00+01:00 app.new_flow true",
         .set(key: "app.new_flow", value: "true", expiry: .until("2026-12-01T09:00:00+01:00"))),
        // The command line's order: the option after the value.
        ("set app.new_flow true --for 2h", .set(key: "app.new_flow", value: "true", expiry: .after(seconds: 7_200))),
        ("toggle --for 2h app.new_flow", .toggle(key: "app.new_flow", expiry: .after(seconds: 7_200))),
        ("toggle app.new_flow --until 2026-12-01T09:00:00Z",
         .toggle(key: "app.new_flow", expiry: .until("2026-12-01T09:00:00Z"))),
        ("set app.motd hello world --until 2026-12-01T09:00:00Z",
         .set(key: "app.motd", value: "hello world", expiry: .until("2026-12-01T09:00:00Z"))),
        // Right after the key, --for is the value, as any text there is.
        ("set app.motd --for 2h", .set(key: "app.motd", value: "--for 2h")),
        (#"set "--for" 2h"#, .set(key: "--for", value: "2h")),
    ])
    func parses(line: String, command: Command) throws {
        #expect(try CommandParser.parse(line) == command)
    }

    @Test func theKeyAndValueCompleteAfterTheOption() throws {
        let board = try Board(inputs: BoardInputs(directory: project.flags, environment: [:]),
                              options: BoardOptions(pollInterval: nil, watchDefinitions: false))
        let completer = Completer(registry: board.registry, attributes: [])
        let line = "set --for 2h app.new_flow "
        #expect(completer.complete(line, cursor: line.count).candidates == ["true", "false"])
        #expect(completer.complete("set --for ", cursor: 10).candidates.isEmpty)
    }

    static let usage = "usage: set [--for DURATION | --until TIME] KEY VALUE"

    @Test(arguments: [
        ("set --for 2h", "set needs a KEY and a VALUE"),
        ("set --for 2h app.new_flow", "set needs a VALUE after the key"),
        ("set --for", "--for needs a value before the KEY"),
        ("set --for 2x app.new_flow true",
         "--for takes a whole number and a unit (s, m, h or d), such as 90s, 30m, 2h or 7d, not '2x'"),
        ("set --for 400d app.new_flow true", "--for is at most 365 days (365d), not '400d'"),
        ("set --until 2026-12-01T09:00:00 app.new_flow true",
         "--until needs a time zone: '2026-12-01T09:00:00' has none (add Z for UTC, or an offset such as +01:00)"),
        ("set --for 2h --until 2026-12-01T09:00:00Z app.new_flow true", "give --for or --until once"),
        ("set --for 2h app.new_flow true --for 3h", "give --for or --until once"),
        // After the value: an option missing its value, and one given twice, are not words of the value.
        ("set app.upload.max_mb 97 --for", "--for needs a value after it: set KEY VALUE --for 2h"),
        ("set app.motd hello --for 2h --for 3h", "give --for or --until once"),
        ("toggle app.new_flow --for", "--for needs a value after it: toggle KEY --for 2h"),
        ("toggle --for 2h", "toggle needs a KEY"),
        ("toggle --for 2h app.new_flow --for 3h", "give --for or --until once"),
        ("set app.new_flow true --for 2x",
         "--for takes a whole number and a unit (s, m, h or d), such as 90s, 30m, 2h or 7d, not '2x'"),
    ])
    func refuses(line: String, message: String) {
        let usage = line.hasPrefix("toggle") ? "usage: toggle [--for DURATION | --until TIME] KEY" : Self.usage
        #expect(throws: CommandError(message: message, hint: usage)) { try CommandParser.parse(line) }
    }

    /// A project for the test to hold while it runs: its folder goes when it is released.
    let project = replProject()
    let clock = SteppedClock()

    func session() throws -> Session {
        let board = try Board(inputs: BoardInputs(directory: project.flags, environment: [:]),
                              options: BoardOptions(pollInterval: nil, watchDefinitions: false, clock: clock))
        return Session(board: board, actor: "tester")
    }

    @Test func setForShowsTheTimeLeftEverywhere() throws {
        let session = try session()
        #expect(session.execute("set --for 2h app.new_flow true").output
                    == "app.new_flow = true (runtime, expires in 2 h)\n")
        // Rounded to the minute: 30 seconds on it still reads 2 h, a minute on 1 h 59 min.
        clock.advance(by: 29)
        #expect(session.execute("get app.new_flow").output == "app.new_flow = true (runtime, expires in 2 h)\n")
        clock.advance(by: 31)
        #expect(session.execute("get app.new_flow").output
                    == "app.new_flow = true (runtime, expires in 1 h 59 min)\n")
        #expect(session.execute("list app.new_flow").output.contains("runtime (expires in 1 h 59 min)"))
        let expiry = StoredOverride.time(secondsSinceEpoch: clock.now() + 7_140)
        #expect(session.execute("explain app.new_flow").output
                    .contains("the runtime override expires in 1 h 59 min (\(expiry))\n"))
    }

    // Toggling a temporary override keeps it temporary: the flipped value lasts as long as the one it replaces,
    // unless the toggle gives its own expiry. A value from a lower layer toggles into a lasting override.
    @Test func toggleKeepsAnExpiringOverrideTemporary() throws {
        let session = try session()
        _ = session.execute("set --for 1h app.new_flow true")
        clock.advance(by: 600)
        #expect(session.execute("toggle app.new_flow").output == "app.new_flow = false (runtime, expires in 50 min)\n")
        #expect(session.execute("toggle app.new_flow --for 2h").output
                    == "app.new_flow = true (runtime, expires in 2 h)\n")
        #expect(session.execute("toggle app.dark_mode").output == "app.dark_mode = false (runtime)\n")
    }

    // `get KEY --at TIME` answers as of that time, as `explain` does: after its expiry, without the override.
    @Test func getAtALaterTimeSeesTheOverrideExpired() throws {
        let session = try session()
        _ = session.execute("set --for 2h app.new_flow true")
        let later = StoredOverride.time(secondsSinceEpoch: clock.now() + 3 * 3_600)
        #expect(session.execute("get app.new_flow --at \(later)").output == "app.new_flow = false (default)\n")
        let sooner = StoredOverride.time(secondsSinceEpoch: clock.now() + 3_600)
        #expect(session.execute("get app.new_flow --at \(sooner)").output.hasPrefix("app.new_flow = true (runtime"))
    }

    @Test(arguments: [("2020-01-01T00:00:00Z", "is in the past"), ("2099-01-01T00:00:00Z", "is more than 365 days away")])
    func anUntilOutOfReachWritesNothing(time: String, problem: String) throws {
        let session = try session()
        let reply = session.execute("set --until \(time) app.new_flow true")
        #expect(!reply.succeeded)
        #expect(reply.errors.contains("--until \(time) \(problem)"))
        #expect(session.execute("log").output == "no changes have been recorded\n")
    }

    @Test func logShowsTheExpiryOnceItsTimeHasCome() throws {
        let session = try session()
        _ = session.execute("set --for 30m app.new_flow true")
        #expect(!session.execute("log").output.contains("expired"))
        clock.advance(by: 1_800)
        let log = session.execute("log").output
        #expect(log.contains("expired: true → (none)"))
    }

    // An expired override counts for no one: reset and reset --all have nothing to remove, and write nothing (the
    // log's last entry stays the expiry, not a removal of a value nobody was served).
    @Test func resetHasNothingToRemoveOnceTheOverrideExpired() throws {
        let session = try session()
        _ = session.execute("set --for 30m app.new_flow true")
        _ = session.execute("set app.theme dark")
        clock.advance(by: 1_800)
        let log = session.execute("log").output
        // (This clock never wakes the board, so the value it then names is not the point; nothing is removed.)
        #expect(session.execute("reset app.new_flow").output.hasPrefix("app.new_flow has no runtime override; "))
        #expect(session.execute("reset --all").output.hasPrefix("removed 1 runtime override\n"))
        #expect(session.execute("reset --all").output == "there are no runtime overrides\n")
        // One record more: app.theme's removal; none for app.new_flow, whose last entry stays its expiry.
        let after = session.execute("log").output.split(separator: "\n")
        #expect(after.count == log.split(separator: "\n").count + 1)
        #expect(after.filter { $0.contains("→ (none)") }.count == 2)
        #expect(after.contains { $0.contains("app.theme") && $0.hasSuffix("dark → (none)") })
    }
}
