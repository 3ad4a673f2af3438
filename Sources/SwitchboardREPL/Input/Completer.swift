import LineEditor
import Switchboard
import SwitchboardTerminal

/// Tab completion for the REPL: command names, keys, and the values a key allows.
///
/// Keys complete one namespace segment at a time, like paths in a shell: `ch` becomes `checkout.`, and a second
/// Tab lists what is in it. A word that starts no key but starts a segment after a dot completes too, so
/// `new_fl` finds `checkout.new_flow`.
struct Completer {
    /// The definitions whose keys and values are offered.
    var registry: Registry
    /// The context's attribute names, offered by `context clear`.
    var attributes: [String]

    /// What Tab offers for `line` with the cursor after `cursor` characters.
    func complete(_ line: String, cursor: Int) -> LineEditor.Completion {
        let characters = Array(line)
        let cursor = min(max(cursor, 0), characters.count)
        let scan = Tokenizer.scan(String(characters[..<cursor]))
        let wordIndex: Int
        let word: String
        let start: Int
        var quote: Character?
        if scan.endsBetweenWords {
            (wordIndex, word, start) = (scan.tokens.count, "", cursor)
        } else if let last = scan.tokens.last {
            (wordIndex, word, start) = (scan.tokens.count - 1, last.text, last.range.lowerBound)
            // Keep the user's quoting style for a word they started with a quote.
            if let first = characters[start...].first, first == "\"" || first == "'" { quote = first }
        } else {
            return .none
        }
        let previous = scan.tokens.prefix(wordIndex).map(\.text)
        let candidates = self.candidates(at: wordIndex, after: previous, prefix: word)
        return LineEditor.Completion(
            candidates: candidates.map { $0.typed(quote: quote) }, replacing: start..<cursor)
    }

    /// A candidate's text, and whether it ends a word (a space follows) or not (a namespace, `NAME=`).
    private struct Candidate {
        var text: String
        var endsWord: Bool

        func typed(quote: Character?) -> String {
            var typed: String
            if let quote, quote == "'", !text.contains("'") {
                typed = "'\(text)'"
            } else if let quote, quote == "\"" {
                typed = "\"" + text.reduce(into: "") { out, character in
                    if character == "\"" || character == "\\" { out.append("\\") }
                    out.append(character)
                } + "\""
            } else {
                typed = Tokenizer.quoted(text)
            }
            return endsWord ? typed + " " : typed
        }
    }

    private func candidates(at index: Int, after previous: [String], prefix: String) -> [Candidate] {
        if index == 0 {
            return CommandInfo.names.filter { $0.hasPrefix(prefix) }.map { Candidate(text: $0, endsWord: true) }
        }
        let command = CommandInfo.named(previous[0])?.name
        // `set --for 2h KEY VALUE`: the option and its value come first, then the key and value complete as usual
        // (`toggle --for 2h KEY` too).
        if command == "set" || command == "toggle", previous.count >= 2,
           previous[1] == "--for" || previous[1] == "--until"
        {
            guard index >= 3 else { return [] }
            return candidates(at: index - 2, after: [previous[0]] + previous.dropFirst(3), prefix: prefix)
        }
        switch (command, index) {
        case ("get", 1), ("explain", 1), ("set", 1), ("list", 1):
            return keys(registry.keys, prefix: prefix)
        case ("toggle", 1):
            return keys(registry.definitions.filter { $0.type == .bool }.map(\.key), prefix: prefix)
        case ("reset", 1):
            let all = "--all".hasPrefix(prefix) ? [Candidate(text: "--all", endsWord: true)] : []
            return keys(registry.keys, prefix: prefix) + all
        case ("set", 2):
            guard let definition = registry[previous[1]] else { return [] }
            return values(of: definition).filter { $0.hasPrefix(prefix) }.map { Candidate(text: $0, endsWord: false) }
        case ("help", 1):
            return CommandInfo.all.map(\.name).filter { $0.hasPrefix(prefix) }
                .map { Candidate(text: $0, endsWord: false) }
        case ("context", _):
            if previous.count >= 2, previous[1] == "clear" {
                return attributes.filter { $0.hasPrefix(prefix) && !previous.contains($0) }
                    .map { Candidate(text: $0, endsWord: true) }
            }
            let clear = index == 1 ? [Candidate(text: "clear", endsWord: true)] : []
            let names = (["targetingKey"] + attributes).map { Candidate(text: $0 + "=", endsWord: false) }
            return (clear + names).filter { $0.text.hasPrefix(prefix) }
        default:
            return []
        }
    }

    /// Keys that start with `prefix`, cut after the next dot; failing that, keys with a segment starting with it.
    private func keys(_ keys: [String], prefix: String) -> [Candidate] {
        var seen = Set<String>()
        var result: [Candidate] = []
        for key in keys where key.hasPrefix(prefix) {
            let rest = key.dropFirst(prefix.count)
            let candidate = if let dot = rest.firstIndex(of: ".") {
                Candidate(text: prefix + rest[...dot], endsWord: false)
            } else {
                Candidate(text: key, endsWord: true)
            }
            if seen.insert(candidate.text + (candidate.endsWord ? " " : "")).inserted { result.append(candidate) }
        }
        if !result.isEmpty || prefix.isEmpty { return result }
        return keys.filter { key in
            key.indices.contains { key[$0] == "." && key[key.index(after: $0)...].hasPrefix(prefix) }
        }.map { Candidate(text: $0, endsWord: true) }
    }

    /// The values `set` accepts for a definition with a fixed set: true/false, variant values, `values`.
    private func values(of definition: Definition) -> [String] {
        // A variant flag offers its variants' names: what `get`, `explain` and the docs call them, and what `set`
        // takes as well as the values.
        if !definition.variants.isEmpty { return definition.variants.map(\.name) }
        if let allowed = definition.allowedValues { return allowed.map(\.plainText) }
        if definition.type == .bool { return ["true", "false"] }
        return []
    }
}
