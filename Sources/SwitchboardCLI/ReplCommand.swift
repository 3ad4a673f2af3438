import ArgumentParser
import Foundation
import Switchboard
import SwitchboardTerminal
import SwitchboardREPL

/// `switchboard repl`: the debug menu — inspect, explain, set, toggle and reset values of a running project.
struct ReplCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "Inspect, explain, set, toggle and reset values interactively, or run a script of commands.",
        discussion: """
            Changes go to the runtime store, so they survive a restart and reach every process using the same \
            store within a second; changes made elsewhere are shown at the next prompt. Type `help` at the \
            prompt for the commands. History is kept in repl_history beside the store \
            ($SWITCHBOARD_REPL_HISTORY overrides it; empty keeps none). When standard input is not a terminal, \
            the lines are run as a script with no prompt or colour, and the exit status is 1 if any command \
            failed: switchboard repl < setup.txt
            """ + "\n\n" + Article.readMore(.repl))

    @OptionGroup var options: GlobalOptions<NoJSON>

    @Option(help: "Who is making changes, for the audit log (default: $SWITCHBOARD_ACTOR, else repl:$USER).")
    var actor: String?

    func validate() throws {
        if options.json { throw ValidationError("repl has no --json output; use `switchboard get --json`") }
        try ActorOption.refuseEmpty(actor)
    }

    func run() async throws {
        // Opened without a watcher: the REPL checks the store itself before each prompt, so what it reports
        // and what it has applied never differ.
        let board = try options.openBoard()
        let actor = actor ?? nonEmptyVariable("SWITCHBOARD_ACTOR") ?? "repl:\(userName() ?? "unknown")"
        let flags = options.flags
        // The loop blocks reading the terminal, so it gets a thread of its own rather than one of the few
        // threads Swift's concurrency runs tasks on.
        let succeeded = await withCheckedContinuation { continuation in
            Thread {
                let repl = REPL(board: board, actor: actor)
                if repl.isInteractive {
                    let count = board.registry.count
                    let keys = "\(count) key\(count == 1 ? "" : "s")"
                    repl.output.write(repl.output.bold("Switchboard REPL") + " — \(keys) from \(flags), "
                        + "overrides in \(board.store.location)\nType help for the commands, Ctrl-D to leave.\n")
                }
                // Only a script's status says whether its commands worked; a person saw each answer.
                continuation.resume(returning: repl.run() || repl.isInteractive)
            }.start()
        }
        if !succeeded { throw ExitCode(1) }
    }
}
