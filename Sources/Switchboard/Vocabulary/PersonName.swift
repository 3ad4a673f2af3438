/// What makes a person's name safe to show as it is in the audit log, where the name is all a reader has to tell
/// one writer from another.
package enum PersonName {
    /// Why `name` could pass for another name or break the log's line; `nil` when it reads as itself: one line of
    /// visible text, no space at either end, no invisible character (`ana` followed by a zero-width space reads as
    /// `ana`), and neither quotes nor parentheses, in which the log writes its own notes (`bob (claimed "ana")`
    /// would read as bob claiming to be ana). Names are not otherwise limited: `Zoë Ngata` reads as itself.
    package static func problem(_ name: String) -> String? {
        guard !name.isEmpty else { return "a name cannot be empty" }
        let invisible = name.unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate: true
            case .spaceSeparator: scalar != " "
            default: false
            }
        }
        if invisible {
            return "a name must be one line of visible text, without tabs, control or invisible characters (such as "
                + "a zero-width space)"
        }
        if name.first == " " || name.last == " " { return "a name cannot start or end with a space" }
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
