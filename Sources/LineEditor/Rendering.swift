/// How many terminal cells text takes, without asking the terminal or the C locale.
///
/// An approximation of `wcwidth`: East Asian wide characters and emoji take two cells, control and
/// zero-width characters none, everything else one. A `Character` is measured by its first scalar, since
/// combining marks and joiners after it draw in the same cells. The line editor and every table measure
/// text here.
package enum DisplayWidth {
    /// Scalar ranges drawn two cells wide: Hangul Jamo, CJK, full-width forms and the emoji blocks.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
        0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
        0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
    ]

    /// Whether a character is a control character (C0, DEL or C1), which terminals act on, not draw.
    package static func isControl(_ character: Character) -> Bool {
        character.unicodeScalars.first?.properties.generalCategory == .control
    }

    /// The cells one character takes.
    package static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if isControl(character) {
            return 0
        }
        // Zero-width spaces and joiners, and a mark with nothing before it to draw on, take no cell; a soft hyphen
        // is drawn.
        switch first.properties.generalCategory {
        case .format where first != "\u{AD}", .nonspacingMark, .enclosingMark: return 0
        default: break
        }
        // An emoji with a presentation selector (❤️) is drawn as a wide emoji.
        if first.properties.isEmojiPresentation || character.unicodeScalars.contains("\u{FE0F}") {
            return 2
        }
        return wideRanges.contains { $0.contains(first.value) } ? 2 : 1
    }

    /// The cells a string takes, counting every character (escape sequences included; see `ofPrompt`).
    package static func of(_ text: some Sequence<Character>) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// `text` on one line, for a table cell: each control character (a line break, a tab, an escape) written as
    /// `\n`, `\t`, `\r` or `\u001b`, so that it neither breaks the row nor reaches the terminal.
    package static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return text }
        var line = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": line += "\\n"
            case "\t": line += "\\t"
            case "\r": line += "\\r"
            case _ where scalar.properties.generalCategory == .control:
                let hex = String(scalar.value, radix: 16)
                line += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            default: line.unicodeScalars.append(scalar)
            }
        }
        return line
    }

    /// `text` and then spaces up to `cells` cells; `text` as it is when it takes that many or more (it is never cut:
    /// see ``fitted(_:to:)``).
    package static func padded(_ text: String, to cells: Int) -> String {
        let width = of(text)
        return width >= cells ? text : text + String(repeating: " ", count: cells - width)
    }

    /// `text` cut to at most `cells` cells (at least one), ending in `…` where it was cut; a character two cells wide
    /// is never halved.
    package static func fitted(_ text: String, to cells: Int) -> String {
        guard of(text) > cells else { return text }
        var kept = ""
        var width = 0
        for character in text {
            let next = of(character)
            guard width + next <= cells - 1 else { break }
            kept.append(character)
            width += next
        }
        return kept + "…"
    }

    /// The cells a prompt takes on screen: like `of`, but ANSI control sequences (`ESC [ ... m` colours
    /// and any other `ESC [` sequence) take none, since the terminal interprets rather than draws them.
    static func ofPrompt(_ prompt: String) -> Int {
        var width = 0
        var iterator = prompt.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == "\u{1B}" else {
                // Prompts are short; measuring scalar by scalar is exact for everything but clusters
                // whose later scalars are wide, which prompts do not use.
                width += of(Character(scalar))
                continue
            }
            guard iterator.next() == "[" else { continue }
            // Skip parameters and intermediates up to and including the final byte (0x40...0x7E).
            while let next = iterator.next(), !(0x40...0x7E).contains(next.value) {}
        }
        return width
    }
}

/// Builds the bytes that redraw a single-line editing area: prompt, the visible part of the buffer,
/// erase-to-end-of-line, and cursor placement.
enum LineRenderer {
    /// The escape sequences and text that redraw `prompt` and `buffer` on the current terminal line,
    /// `columns` cells wide, leaving the terminal cursor at the buffer's cursor.
    ///
    /// A line too long for the terminal scrolls horizontally so that the cursor stays visible, as in
    /// linenoise: characters are dropped from the left until the cursor fits, then from the right until
    /// the rest fits. Redrawing the whole line each time is simple and, for one line, fast enough.
    static func render(prompt: String, buffer: LineBuffer, columns: Int) -> String {
        let promptWidth = DisplayWidth.ofPrompt(prompt)
        // Typed keys never put control characters in the line, but a recalled history entry might hold
        // one (a tab, an escape); drawn raw it would move the cursor or restyle the terminal.
        let characters = buffer.characters.map { DisplayWidth.isControl($0) ? "\u{FFFD}" : $0 }
        // offsets[i] is the width of characters[..<i], so any slice's width is one subtraction.
        var offsets = [0]
        offsets.reserveCapacity(characters.count + 1)
        for character in characters {
            offsets.append(offsets[offsets.count - 1] + DisplayWidth.of(character))
        }
        var first = 0
        while first < buffer.cursor, promptWidth + offsets[buffer.cursor] - offsets[first] >= columns {
            first += 1
        }
        var last = characters.count
        while last > buffer.cursor, promptWidth + offsets[last] - offsets[first] > columns {
            last -= 1
        }
        let cursorColumn = promptWidth + offsets[buffer.cursor] - offsets[first]
        var output = "\r" + prompt + String(characters[first..<last]) + "\u{1B}[K\r"
        if cursorColumn > 0 {
            output += "\u{1B}[\(cursorColumn)C"
        }
        return output
    }
}
