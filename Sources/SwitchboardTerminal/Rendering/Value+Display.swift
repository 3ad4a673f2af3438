import Foundation
import LineEditor
public import Switchboard

extension Value {
    /// The value on one line, for a table's cell: ``Value/plainText`` with each control character written as an
    /// escape (`\n`, `\t`, `\u001b`), so that a string with a line break keeps its row whole.
    public var lineText: String { DisplayWidth.oneLine(plainText) }

    /// ``lineText`` cut to 30 terminal cells, ending in `…` where it was cut.
    public var shortText: String { DisplayWidth.fitted(lineText, to: 30) }
}

extension Definition {
    /// The description on one line, for `list`'s column and `explain`'s header: a description written over several
    /// lines (a YAML `|` or `>` block) joined with spaces, and any other control character written as an escape, so
    /// that none reaches the terminal. Empty without a description.
    public var descriptionLine: String {
        let lines = (description ?? "").split(whereSeparator: \.isNewline)
        return DisplayWidth.oneLine(lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " "))
    }
}
