/// One word of a command line, after shell-style quoting is undone.
struct Token: Sendable, Equatable {
    /// The word with its quotes and backslashes removed: `"hello world"` gives `hello world`.
    var text: String
    /// Where the word stands in the line, in `Character` offsets, quotes included.
    var range: Range<Int>
    /// Whether any part of the word was quoted or escaped, so `"42"` can stay the text "42".
    var isQuoted: Bool
}

/// Splits a command line into words the way a shell does, so that `set app.motd "hello world"` has three.
///
/// Whitespace separates words. `'…'` keeps everything literally; `"…"` keeps everything but lets `\"` and `\\`
/// through; outside quotes `\` takes the next character literally. Quotes may sit inside a word
/// (`name="Jane Doe"` is one word).
enum Tokenizer {
    /// What went wrong splitting a line.
    enum Problem: Error, Equatable {
        /// A quote was opened and never closed.
        case unterminatedQuote(Character)
    }

    /// The result of scanning a line that may be unfinished, as it is while the user is still typing it.
    struct Scan: Equatable {
        /// The words, the last one possibly unfinished.
        var tokens: [Token]
        /// The quote still open at the end of the line, if any.
        var openQuote: Character?
        /// Whether the line ends with whitespace outside quotes, so that a new word starts at its end.
        var endsBetweenWords: Bool
    }

    /// The words of a complete line.
    static func split(_ line: String) throws(Problem) -> [Token] {
        let scan = scan(line)
        if let quote = scan.openQuote { throw .unterminatedQuote(quote) }
        return scan.tokens
    }

    /// The words of a line that may end inside a word or a quote.
    static func scan(_ line: String) -> Scan {
        let characters = Array(line)
        var tokens: [Token] = []
        var index = 0
        var current: (text: String, start: Int, isQuoted: Bool)?
        var quote: Character?
        func finish(at end: Int) {
            if let word = current {
                tokens.append(Token(text: word.text, range: word.start..<end, isQuoted: word.isQuoted))
            }
            current = nil
        }
        while index < characters.count {
            let character = characters[index]
            if let open = quote {
                if character == open {
                    quote = nil
                } else if open == "\"", character == "\\", index + 1 < characters.count,
                          characters[index + 1] == "\"" || characters[index + 1] == "\\" {
                    index += 1
                    current?.text.append(characters[index])
                } else {
                    current?.text.append(character)
                }
            } else if character.isWhitespace {
                finish(at: index)
            } else {
                if current == nil { current = ("", index, false) }
                if character == "\"" || character == "'" {
                    quote = character
                    current?.isQuoted = true
                } else if character == "\\", index + 1 < characters.count {
                    index += 1
                    current?.text.append(characters[index])
                    current?.isQuoted = true
                } else {
                    current?.text.append(character)
                }
            }
            index += 1
        }
        let endsBetweenWords = current == nil && quote == nil
        finish(at: characters.count)
        return Scan(tokens: tokens, openQuote: quote, endsBetweenWords: endsBetweenWords)
    }

    /// The word as it must be typed to come back as `text`: unchanged when it is plain, otherwise in quotes.
    static func quoted(_ text: String) -> String {
        let special: Set<Character> = ["\"", "'", "\\"]
        let isPlain = !text.isEmpty && !text.hasPrefix("#")
            && !text.contains(where: { $0.isWhitespace || special.contains($0) })
        if isPlain { return text }
        if !text.contains("'") { return "'\(text)'" }
        var escaped = ""
        for character in text {
            if character == "\"" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return "\"\(escaped)\""
    }
}
