import LineEditor
public import Switchboard

extension Value {
    /// The value on one line, for a table's cell: ``Value/plainText`` with each control character written as an
    /// escape (`\n`, `\t`, `\u001b`), so that a string with a line break keeps its row whole.
    public var lineText: String { DisplayWidth.oneLine(plainText) }

    /// ``lineText`` cut to 30 terminal cells, ending in `…` where it was cut.
    public var shortText: String { DisplayWidth.fitted(lineText, to: 30) }
}
