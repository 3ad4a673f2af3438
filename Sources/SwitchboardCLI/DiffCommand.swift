import ArgumentParser
import Foundation
import Switchboard
import SwitchboardTerminal
import SwitchboardReview

/// `switchboard diff`: what an edit changes between two revisions, folders or environments, with the share of
/// contexts whose value moves and the breaking risks.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what an edit changes, key by key, and for how many contexts the served value moves.",
        discussion: """
            BASE and HEAD are git revisions or WORKTREE, the working tree: BASE defaults to HEAD, HEAD to WORKTREE. \
            --from DIR --to DIR compares two folders; --env-base A --env-head B two environments' override \
            files. Exits 0 when it ran, 1 on an error, and 3 with --fail-on breaking when a risk is breaking.

            """ + Article.readMore(.reviewing, .commandLine)
    )

    /// What `--fail-on` can fail on.
    enum FailOn: String, ExpressibleByArgument, CaseIterable {
        case breaking
    }

    @OptionGroup var options: GlobalOptions<PrintsJSON>

    @Argument(help: "The revision before the edit (default: HEAD).")
    var base: String?

    @Argument(help: "The revision after the edit (default: WORKTREE, the working tree).")
    var head: String?

    @Option(help: ArgumentHelp("A definitions folder to compare from, instead of a revision.", valueName: "dir"))
    var from: String?

    @Option(help: ArgumentHelp("A definitions folder to compare to, with --from.", valueName: "dir"))
    var to: String?

    @Option(name: .customLong("env-base"), help: ArgumentHelp(
        "The environment whose override file the base applies (default: --env).", valueName: "name"))
    var environmentBase: String?

    @Option(name: .customLong("env-head"), help: ArgumentHelp(
        "The environment whose override file the head applies (default: --env).", valueName: "name"))
    var environmentHead: String?

    @Option(help: ArgumentHelp(
        "The population: a JSON Lines file, one evaluation context per line (targetingKey included).",
        valueName: "file"))
    var contexts: String?

    @Option(help: ArgumentHelp("Without --contexts, how many contexts to synthesize (at most 1,000,000).",
                               valueName: "n"))
    var samples = 10_000

    @Option(help: ArgumentHelp("The seed the synthesized contexts are drawn with.", valueName: "n"))
    var seed: UInt64 = 1

    @OptionGroup var at: TimeOption

    @Flag(help: "Print Markdown for a pull request comment (cut before 65,536 characters).")
    var markdown = false

    @Option(name: .customLong("fail-on"), help: ArgumentHelp(
        "Exit 3 when the review finds a risk of this kind.", valueName: "breaking"))
    var failOn: FailOn?

    func validate() throws {
        if (from == nil) != (to == nil) { throw ValidationError("--from and --to go together") }
        if from != nil, base != nil { throw ValidationError("compare revisions or folders (--from/--to), not both") }
        if markdown, options.json { throw ValidationError("choose --json or --markdown, not both") }
        if samples < 1 { throw ValidationError("--samples must be at least 1") }
        if samples > Population.largestSynthesizedCount {
            throw ValidationError("--samples must be at most \(Population.largestSynthesizedCount)")
        }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let shared = (options.environmentName ?? environment["SWITCHBOARD_ENV"]).flatMap { $0.isEmpty ? nil : $0 }
        let environmentMode = environmentBase != nil || environmentHead != nil
        let sources: (base: ReviewSource, head: ReviewSource)
        if let from, let to {
            sources = (.folder(from, label: from), .folder(to, label: to))
        } else if environmentMode, base == nil {
            let worktree = ReviewSource.folder(options.flags, label: ReviewSource.worktreeLabel)
            sources = (worktree, worktree)
        } else {
            sources = (.named(base ?? "HEAD", folder: options.flags),
                       .named(head ?? ReviewSource.worktreeLabel, folder: options.flags))
        }
        let review: Review
        do {
            var baseSide = try ReviewSide.load(sources.base, environmentName: environmentBase ?? shared)
            var headSide = try ReviewSide.load(sources.head, environmentName: environmentHead ?? shared)
            if environmentMode {
                baseSide.label += " (env \(environmentBase ?? shared ?? "none"))"
                headSide.label += " (env \(environmentHead ?? shared ?? "none"))"
            }
            let population = try contexts.map { path throws(ReviewError) in try Population(jsonLinesFile: path) }
                ?? Review.synthesizedPopulation(base: baseSide, head: headSide, count: samples, seed: seed)
            let store = try options.boardInputs().store
            let stored = try options.storeStep { () throws(StoreError) in try store.read() }.entries
            review = Review(base: baseSide, head: headSide, population: population, stored: stored,
                            at: at.seconds ?? Date().timeIntervalSince1970)
        } catch let error as ReviewError {
            throw options.failure([.error(at: nil, error.message, hint: error.hint)])
        }
        if options.json {
            print(review.jsonValue.json)
        } else if markdown {
            print(review.markdown(), terminator: "")
        } else {
            Terminal.standardOutput.write(review.text(terminal: .standardOutput))
        }
        if failOn == .breaking, review.isBreaking { throw ExitCode(3) }
    }
}
