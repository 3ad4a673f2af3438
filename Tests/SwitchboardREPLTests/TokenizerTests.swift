import Testing
@testable import SwitchboardREPL

struct TokenizerTests {
    @Test(arguments: [
        ("get app.theme", ["get", "app.theme"]),
        ("  set   app.motd   hi  ", ["set", "app.motd", "hi"]),
        (#"set app.motd "hello world""#, ["set", "app.motd", "hello world"]),
        ("set app.motd 'it said \"hi\"'", ["set", "app.motd", #"it said "hi""#]),
        (#"set app.motd "a \"quoted\" word""#, ["set", "app.motd", #"a "quoted" word"#]),
        (#"set app.motd hello\ world"#, ["set", "app.motd", "hello world"]),
        (#"context name="Jane Doe" plan=pro"#, ["context", "name=Jane Doe", "plan=pro"]),
        (#"set k """#, ["set", "k", ""]),
        ("", []),
    ])
    func splitsLikeAShell(line: String, words: [String]) throws {
        #expect(try Tokenizer.split(line).map(\.text) == words)
    }

    @Test func rangesCoverQuotesAndQuotedWordsAreMarked() throws {
        let tokens = try Tokenizer.split(#"set "a b" c"#)
        #expect(tokens.map(\.range) == [0..<3, 4..<9, 10..<11])
        #expect(tokens.map(\.isQuoted) == [false, true, false])
    }

    @Test func anUnterminatedQuoteIsAnError() {
        #expect(throws: Tokenizer.Problem.unterminatedQuote("\"")) { try Tokenizer.split(#"set k "open"#) }
        #expect(throws: Tokenizer.Problem.unterminatedQuote("'")) { try Tokenizer.split("set k 'open") }
    }

    @Test func scanningAnUnfinishedLineSaysWhereTheNextWordStarts() {
        #expect(Tokenizer.scan("get ").endsBetweenWords)
        #expect(!Tokenizer.scan("get app").endsBetweenWords)
        let open = Tokenizer.scan(#"set app.motd "hel"#)
        #expect(open.openQuote == "\"")
        #expect(open.tokens.last?.text == "hel")
        #expect(!open.endsBetweenWords)
    }

    @Test(arguments: [
        ("dark", "dark"), ("hello world", "'hello world'"), ("it's", #""it's""#), (#"say "hi""#, #"'say "hi"'"#),
        ("", "''"), ("#tag", "'#tag'"),
    ])
    func quotingRoundTrips(text: String, typed: String) throws {
        #expect(Tokenizer.quoted(text) == typed)
        #expect(try Tokenizer.split(typed).map(\.text) == [text])
    }
}
