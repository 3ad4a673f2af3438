import Switchboard
import SwitchboardTerminal

/// One parsed command line.
enum Command: Equatable {
    /// `list [PATTERN]`.
    case list(pattern: String?)
    /// `get KEY`, or `get KEY --at TIME`: as of another time (seconds since the epoch).
    case get(key: String, at: Double? = nil)
    /// `explain KEY`, or `explain KEY --at TIME`: as of another time (seconds since the epoch).
    case explain(key: String, at: Double? = nil)
    /// `set [--for DURATION | --until TIME] KEY VALUE`; `value` is the text as typed, read later by the key's type.
    case set(key: String, value: String, expiry: Expiry? = nil)
    /// `toggle [--for DURATION | --until TIME] KEY`: without either, a runtime override that expires keeps its expiry.
    case toggle(key: String, expiry: Expiry? = nil)
    /// `reset KEY`.
    case reset(key: String)
    /// `reset --all`.
    case resetAll
    /// `context`.
    case showContext
    /// `context NAME=VALUE…`.
    case setContext([ContextAssignment])
    /// `context clear [NAME…]`; no names clears everything.
    case clearContext([String])
    /// `changed`.
    case changed
    /// `log [N]`.
    case log(count: Int)
    /// `reload`.
    case reload
    /// `help [COMMAND]`.
    case help(topic: String?)
    /// `quit` or `exit`.
    case quit

    /// When a `set` or `toggle` override expires: the option comes before the key, or last.
    enum Expiry: Equatable {
        /// `--for 2h`: this many seconds after the write.
        case after(seconds: Double)
        /// `--until TIME`: an RFC 3339 time with a zone, checked against the time of the write.
        case until(String)
    }

    /// One `NAME=VALUE` of `context`.
    struct ContextAssignment: Equatable {
        /// The attribute's name, or `targetingKey`.
        var name: String
        /// The value as typed.
        var text: String
        /// Whether the value was quoted, which keeps it text.
        var isQuoted: Bool
    }

    /// How many `log` entries are shown when no number is given.
    static let defaultLogCount = 20
}

/// A command line that does not parse: the message and a hint, rendered like a diagnostic.
struct CommandError: Error, Equatable {
    /// What is wrong.
    var message: String
    /// How to put it right.
    var hint: String?
}

/// Turns the words of a line into a ``Command``.
enum CommandParser {
    /// Parses a line; `nil` for a blank line or a `#` comment.
    static func parse(_ line: String) throws(CommandError) -> Command? {
        let tokens: [Token]
        do {
            tokens = try Tokenizer.split(line)
        } catch {
            switch error {
            case .unterminatedQuote(let quote):
                throw CommandError(message: "unterminated \(quote) quote", hint: "close it with another \(quote)")
            }
        }
        guard let first = tokens.first, !first.text.hasPrefix("#") || first.isQuoted else { return nil }
        return try parse(tokens, line: Array(line))
    }

    private static func parse(_ tokens: [Token], line: [Character]) throws(CommandError) -> Command {
        let name = tokens[0].text
        guard let info = CommandInfo.named(name) else {
            let hint = Suggestions.nearestCommand(to: name).map { "did you mean '\($0)'? (help lists the commands)" }
                ?? "help lists the commands"
            throw CommandError(message: "unknown command '\(name)'", hint: hint)
        }
        let arguments = Array(tokens.dropFirst())
        let words = arguments.map(\.text)
        func usage(_ problem: String) -> CommandError {
            CommandError(message: "\(problem)", hint: "usage: \(info.usage)")
        }
        func expectingNothing(_ command: Command) throws(CommandError) -> Command {
            guard words.isEmpty else { throw usage("\(info.name) takes no arguments") }
            return command
        }
        func key() throws(CommandError) -> String {
            guard let key = words.first else { throw usage("\(info.name) needs a KEY") }
            guard words.count == 1 else { throw usage("\(info.name) takes one KEY") }
            return key
        }
        switch info.name {
        case "list":
            guard words.count <= 1 else { throw usage("list takes at most one PATTERN") }
            return .list(pattern: words.first)
        case "get", "explain":
            // `KEY --at TIME`: as of another time, as on the command line.
            var time: Double?
            if words.count == 3, words[1] == "--at" {
                do throws(ExpiryInput.Problem) {
                    time = try ExpiryInput.zonedMoment(of: words[2], name: "--at")
                } catch {
                    throw usage(error.message)
                }
            }
            let key = time == nil ? try key() : words[0]
            return info.name == "get" ? .get(key: key, at: time) : .explain(key: key, at: time)
        case "set":
            var rest = arguments[...]
            let expiry = try expiryOptions(&rest, words: 2, shape: "set KEY VALUE", usage: usage)
            guard rest.count >= 2 else {
                throw usage(rest.isEmpty ? "set needs a KEY and a VALUE" : "set needs a VALUE after the key")
            }
            return .set(key: rest.first!.text, value: value(of: Array(rest.dropFirst()), in: line), expiry: expiry)
        case "toggle":
            var rest = arguments[...]
            let expiry = try expiryOptions(&rest, words: 1, shape: "toggle KEY", usage: usage)
            guard let key = rest.first else { throw usage("toggle needs a KEY") }
            guard rest.count == 1 else { throw usage("toggle takes one KEY") }
            return .toggle(key: key.text, expiry: expiry)
        case "reset":
            if words == ["--all"] { return .resetAll }
            if words.contains("--all") { throw usage("reset takes either a KEY or --all") }
            return .reset(key: try key())
        case "context":
            return try context(arguments, usage: usage)
        case "changed":
            return try expectingNothing(.changed)
        case "log":
            guard words.count <= 1 else { throw usage("log takes at most one number") }
            guard let text = words.first else { return .log(count: Command.defaultLogCount) }
            guard let count = Int(text), count > 0 else { throw usage("'\(text)' is not a positive number") }
            return .log(count: count)
        case "reload":
            return try expectingNothing(.reload)
        case "help":
            guard words.count <= 1 else { throw usage("help takes at most one COMMAND") }
            return .help(topic: words.first)
        default:
            return try expectingNothing(.quit)
        }
    }

    /// Takes `--for DURATION` or `--until TIME` out of the arguments of `set` or `toggle`: before the key, or last, as
    /// on the command line (`set KEY VALUE --for 2h`), where unquoted the last two words are the option. `words` is
    /// how many words the command needs besides it (`set`: KEY and VALUE), `shape` how they read in a message.
    private static func expiryOptions(
        _ rest: inout ArraySlice<Token>, words: Int, shape: String, usage: (String) -> CommandError
    ) throws(CommandError) -> Command.Expiry? {
        var expiry: Command.Expiry?
        func isExpiryOption(_ word: Token) -> Bool {
            !word.isQuoted && (word.text == "--for" || word.text == "--until")
        }
        func readExpiry(_ option: String, _ text: String) throws(CommandError) -> Command.Expiry {
            guard expiry == nil else { throw usage("give --for or --until once") }
            do throws(ExpiryInput.Problem) {
                if option == "--for" { return .after(seconds: try ExpiryInput.seconds(ofDuration: text)) }
                // Its form is checked now; whether it is past, only when the session writes.
                _ = try ExpiryInput.moment(of: text, now: -.infinity)
                return .until(text)
            } catch {
                throw usage(error.message)
            }
        }
        while let option = rest.first, isExpiryOption(option) {
            guard rest.count >= 2 else { throw usage("\(option.text) needs a value before the KEY") }
            expiry = try readExpiry(option.text, rest.dropFirst().first!.text)
            rest = rest.dropFirst(2)
        }
        // An option last, with nothing after it, is one missing its value rather than a word of the value.
        if rest.count >= words + 1, let last = rest.last, isExpiryOption(last) {
            throw usage("\(last.text) needs a value after it: \(shape) \(last.text) "
                + (last.text == "--for" ? "2h" : "2026-12-01T09:00:00Z"))
        }
        if rest.count >= words + 2, isExpiryOption(rest[rest.endIndex - 2]) {
            expiry = try readExpiry(rest[rest.endIndex - 2].text, rest.last!.text)
            rest = rest.dropLast(2)
            // A second pair before it would otherwise be read as words of the value.
            if rest.count >= words + 2, isExpiryOption(rest[rest.endIndex - 2]) {
                throw usage("give --for or --until once")
            }
        }
        return expiry
    }

    /// The value of `set`: one word as it was unquoted; several words as the rest of the line, verbatim, so that
    /// `set app.motd hello world` and `set app.ports [80, 443]` mean what they look like. A lone JSON list or
    /// object also stays verbatim, since unquoting would eat the quotes inside `{"a":1}`.
    private static func value(of tokens: [Token], in line: [Character]) -> String {
        guard let first = tokens.first, let last = tokens.last else { return "" }
        let raw = String(line[first.range.lowerBound..<last.range.upperBound])
        if tokens.count > 1 || raw.hasPrefix("[") || raw.hasPrefix("{") { return raw }
        return first.text
    }

    private static func context(
        _ arguments: [Token], usage: (String) -> CommandError
    ) throws(CommandError) -> Command {
        guard let first = arguments.first else { return .showContext }
        if first.text == "clear", !first.isQuoted {
            return .clearContext(arguments.dropFirst().map(\.text))
        }
        var assignments: [Command.ContextAssignment] = []
        for argument in arguments {
            guard let equals = argument.text.firstIndex(of: "="), equals != argument.text.startIndex else {
                throw usage("expected NAME=VALUE, found '\(argument.text)'")
            }
            let name = String(argument.text[..<equals])
            let text = String(argument.text[argument.text.index(after: equals)...])
            assignments.append(Command.ContextAssignment(name: name, text: text, isQuoted: argument.isQuoted))
        }
        return .setContext(assignments)
    }
}

extension Suggestions {
    /// The command name nearest a mistyped one.
    static func nearestCommand(to word: String) -> String? {
        nearest(to: word, in: CommandInfo.names)
    }
}
