import Foundation

/// A plain text table: columns padded to their widest cell, the last column left ragged.
public struct Table: Sendable {
    /// The column titles, printed in bold.
    public var header: [String]
    /// The rows; each has one cell per column.
    public var rows: [[String]] = []

    /// A table with these column titles and no rows yet.
    public init(header: [String], rows: [[String]] = []) {
        self.header = header
        self.rows = rows
    }

    /// The table as lines of text, each ending in a line break.
    public func render(terminal: Terminal) -> String {
        let widths = header.indices.map { column in
            ([header[column]] + rows.map { $0[column] }).map(\.count).max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        var out = terminal.bold(line(header)) + "\n"
        for row in rows { out += line(row) + "\n" }
        return out
    }
}
