import ArgumentParser
import LineEditor
import Switchboard
import SwitchboardTerminal

/// `switchboard list`: every definition with its resolved value and the layer it comes from.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List every definition: key, kind, type, default, resolved value, layer and description.",
        discussion: Article.readMore(.commandLine, .layers)
    )

    @OptionGroup var options: GlobalOptions<PrintsJSON>

    @Argument(help: "Only keys matching this glob (checkout.*, *.max_*); without * or ?, a key or a namespace.")
    var pattern: String?

    @OptionGroup var evaluation: ContextOptions

    @OptionGroup var at: TimeOption

    func run() throws {
        let board = try options.openBoard()
        let snapshot = at.seconds.map(board.snapshot(at:)) ?? board.snapshot
        let context = evaluation.context
        let glob = pattern.map(Glob.init)
        let rows = snapshot.entries.indices.filter { glob?.selects(key: snapshot.entries[$0].definition.key) ?? true }
            .map { (entry: snapshot.entries[$0], resolution: snapshot.evaluate($0, context: context).resolution) }
        if options.json {
            print(Value.list(rows.map { row in
                let key = row.entry.definition.key
                return row.entry.jsonValue(resolution: row.resolution,
                                           expiresAt: board.expiresAt(of: key, serving: row.resolution,
                                                                      at: at.seconds))
            }).json)
            return try options.requireReadableStore(board)
        }
        if let pattern, rows.isEmpty {
            let suggestions = snapshot.registry.patternSuggestions(for: pattern)
            Terminal.standardError.print(
                diagnostic: Message.noKeyMatches(pattern: pattern, suggestions: suggestions).diagnostic)
            throw ExitCode(1)
        }
        let terminal = Terminal.standardOutput
        var table = Table(header: ["KEY", "KIND", "TYPE", "DEFAULT", "VALUE", "LAYER", "DESCRIPTION"])
        for (entry, resolution) in rows {
            let definition = entry.definition
            let value = resolution.value.map(\.lineText) ?? resolution.absentValueText
            let expiry = board.expiresText(of: definition.key, serving: resolution, at: at.seconds)
                .map { " (\($0))" } ?? ""
            table.rows.append([
                definition.key, definition.kind.rawValue, definition.type.rawValue,
                definition.hasDefault ? definition.defaultValue.lineText : "—", value,
                resolution.isDisabled ? "disabled" : (resolution.layer?.rawValue ?? "") + expiry,
                definition.descriptionLine,
            ])
        }
        // DEFAULT, VALUE and DESCRIPTION give way, so the line fits the terminal (or 100 columns in a pipe).
        terminal.write(table.render(terminal: terminal, width: terminal.columns, shrinking: [3, 4, 6]))
        try options.requireReadableStore(board)
    }
}

