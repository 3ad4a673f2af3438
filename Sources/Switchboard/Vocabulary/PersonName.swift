/// What makes a person's name safe to show as it is in the audit log, where the name is all a reader has to tell
/// one writer from another.
package enum PersonName {
    /// Why `name` could pass for another name or break the log's line; `nil` when it reads as itself: one line of
    /// visible text, no space at either end, no invisible character (`ana` followed by a zero-width space reads as
    /// `ana`), and neither quotes nor parentheses, in which the log writes its own notes (`bob (claimed "ana")`
    /// would read as bob claiming to be ana). Names are not otherwise limited: `Zoë Ngata` reads as itself.
    package static func problem(_ name: String) -> String? {
        guard !name.isEmpty else { return "a name cannot be empty" }
        // Default-ignorable code points render as nothing (the combining grapheme joiner, variation selectors, the
        // Hangul fillers), whatever their category.
        let invisible = name.unicodeScalars.first { scalar in
            if scalar.properties.isDefaultIgnorableCodePoint { return true }
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate:
                return true
            case .spaceSeparator: return scalar != " "
            default: return false
            }
        }
        if let invisible {
            let hex = String(invisible.value, radix: 16, uppercase: true)
            let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            return "a name must be one line of plain visible text; this one holds \(code), which reads as nothing, "
                + "as a plain space or as a line break"
        }
        // A space with marks on it is still a space at the end.
        if name.first?.unicodeScalars.first == " " || name.last?.unicodeScalars.first == " " {
            return "a name cannot start or end with a space"
        }
        if name.contains(where: { "\"()".contains($0) }) {
            return "a name cannot hold quotes or parentheses: the audit log writes its notes in them"
        }
        return nil
    }

    /// `name` as the log shows it: as it is when it reads as itself (``problem(_:)``), else quoted, with its
    /// invisible characters escaped (`"ana\u200b"`). Access files hold only names that read as themselves; the
    /// command line's `--actor` and an identity provider's claims may not.
    package static func shown(_ name: String) -> String {
        problem(name) == nil ? name : Message.quoted(name)
    }
}
