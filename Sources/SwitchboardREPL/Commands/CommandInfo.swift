/// What the REPL says about one of its commands: usage, a one-line summary for `help`, and the longer text for
/// `help COMMAND`. The list is the single source of the command names, so completion, suggestions and help
/// cannot disagree.
struct CommandInfo: Sendable {
    /// The name typed at the prompt.
    var name: String
    /// The arguments, as shown in usage lines: `KEY VALUE`.
    var arguments: String
    /// One line for the `help` listing, without a full stop.
    var summary: String
    /// The text `help COMMAND` adds below the usage and summary.
    var details: String
    /// Other names that run the same command.
    var aliases: [String] = []

    /// `set KEY VALUE`.
    var usage: String { arguments.isEmpty ? name : "\(name) \(arguments)" }

    /// Every command, in the order `help` lists them.
    static let all: [CommandInfo] = [
        CommandInfo(
            name: "list", arguments: "[PATTERN]",
            summary: "Keys with their type, resolved value and layer",
            details: """
                PATTERN is a glob: `*` matches any run of characters, `?` one character (checkout.*, *.max_*).
                Without `*` or `?` it is a key or a namespace (`list app` and `list app.` list the app namespace,
                never `apps.x`), as on the command line.
                Values are resolved for the session's context (see `help context`).
                """),
        CommandInfo(
            name: "get", arguments: "KEY [--at TIME]",
            summary: "A key's resolved value and the layer it is from",
            details: """
                The value is resolved for the session's context; `explain KEY` shows every layer. `--at TIME`
                (RFC 3339 with a zone) answers as of that time, as `explain` does.
                """),
        CommandInfo(
            name: "explain", arguments: "KEY [--at TIME]",
            summary: "Every layer's value and origin, and the winner",
            details: """
                Layers, highest first: runtime (the override store), env (SWITCHBOARD_… variables), file (override
                files), default (the definition). The highest layer with a value that fits the definition wins;
                a value that does not fit is shown as skipped, with the reason. A scheduled definition shows its
                timeline. `--at TIME` (RFC 3339 with a zone) answers as of that time: schedule steps and override
                expiries applied then.
                """),
        CommandInfo(
            name: "set", arguments: "[--for DURATION | --until TIME] KEY VALUE",
            summary: "Set a runtime override (checked, persisted)",
            details: """
                The value is read by the key's type: true/false, 42, 1.5, text, [1, 2], {"a": 1}. Quote it to keep
                spaces or quotes: set app.motd "hello world". For a flag with variants, the variant's name works
                too. A value that does not fit (type, allowed values, range, pattern) is refused with the reason,
                and nothing is written. The override is persisted in the runtime store, so it survives a restart
                and reaches every process using the same store within a second; it is logged (see `log`).
                With --for 2h (s, m, h or d, at most 365d) or --until 2026-12-01T09:00:00Z (with a zone, at most
                365 days away) before the key (or after the value, as on the command line), it expires then: the
                key falls back to the next layer, and `log` shows it expired. Quote a value that ends in --for or
                --until words.
                """),
        CommandInfo(
            name: "toggle", arguments: "[--for DURATION | --until TIME] KEY",
            summary: "Flip a bool key with a runtime override",
            details: """
                Sets the opposite of the value the key resolves to now; only for keys of type bool. --for and
                --until work as for `set`. Without them, a runtime override that expires keeps its expiry: the
                flipped value lasts as long as the one it replaces.
                """),
        CommandInfo(
            name: "reset", arguments: "KEY | --all",
            summary: "Remove a runtime override, or all of them",
            details: """
                The key falls back to the next layer down (env, file or its default). `reset --all` removes every
                runtime override, also ones whose key is no longer defined; at a terminal it asks first.
                """),
        CommandInfo(
            name: "context", arguments: "[NAME=VALUE… | clear]",
            summary: "Show, set or clear the context of lookups",
            details: """
                `context` shows it; `context plan=pro age=42` sets attributes; `context targetingKey=user-1` sets
                the targeting key rollouts bucket by; `context clear` empties it, `context clear plan` removes one
                attribute. Values are read as YAML scalars: true, 42, 1.5, null, anything else is text; quote a
                value to keep it text (plan="42"). The context lives only as long as the session.
                """),
        CommandInfo(
            name: "changed", arguments: "",
            summary: "Values that differ from their defaults",
            details: "Also lists overrides that happen to equal the default, since they still pin the value."),
        CommandInfo(
            name: "log", arguments: "[N]",
            summary: "The last N changes to runtime overrides",
            details: """
                The audit trail of the runtime store, oldest first: when, who, which key, the override before and
                after ((none): no override). N defaults to 20.
                """),
        CommandInfo(
            name: "reload", arguments: "",
            summary: "Re-read the definitions and override files",
            details: """
                When the definitions have errors they are listed with file:line:column, and the last good
                definitions stay in use. Edits to the files and overrides made elsewhere are also picked up by
                themselves before every prompt; reload re-reads on demand and lists the problems again.
                """),
        CommandInfo(
            name: "help", arguments: "[COMMAND]",
            summary: "List the commands, or describe one",
            details: "Tab completes command names, keys and, for keys with a fixed set of values, the values."),
        CommandInfo(
            name: "quit", arguments: "",
            summary: "Leave the REPL (also exit, Ctrl-D)",
            details: "Runtime overrides stay in effect after leaving.", aliases: ["exit"]),
    ]

    /// The command with this name or alias.
    static func named(_ name: String) -> CommandInfo? {
        all.first { $0.name == name || $0.aliases.contains(name) }
    }

    /// Every name and alias, for completion and suggestions.
    static var names: [String] {
        all.flatMap { [$0.name] + $0.aliases }
    }
}
