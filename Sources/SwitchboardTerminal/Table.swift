import Foundation
import LineEditor

/// A plain text table: columns padded to their widest cell, the last column left ragged. Widths are terminal cells
/// (``DisplayWidth``): a CJK character or an emoji takes two.
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

    /// Lines of `rows` without a header, for a report that indents them under a heading of its own: each column
    /// padded to its widest cell, the last left ragged, and no line ending in spaces. Rows may be shorter than
    /// others.
    public static func alignedLines(_ rows: [[String]]) -> [String] {
        guard let columns = rows.map(\.count).max() else { return [] }
        let widths = (0..<columns).map { column in
            rows.map { column < $0.count ? DisplayWidth.of($0[column]) : 0 }.max() ?? 0
        }
        return rows.map { row in
            var line = row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : DisplayWidth.padded(cell, to: widths[column])
            }.joined(separator: "  ")
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }

    /// The fewest cells a column keeps when a table is cut to a width, however narrow.
    public static let narrowestColumn = 10

    /// The table as lines of text, each ending in a line break.
    ///
    /// - Parameters:
    ///   - width: when given, the columns in `shrinking` are narrowed, the widest first, until each line fits in
    ///     this many cells, and a cell cut to fit ends in `…`. A column keeps at least ``narrowestColumn`` cells,
    ///     so a very narrow terminal may still see lines overflow.
    ///   - shrinking: the columns that may be narrowed (by index); by default the last.
    public func render(terminal: Terminal, width: Int? = nil, shrinking: [Int]? = nil) -> String {
        var widths = header.indices.map { column in
            ([header[column]] + rows.map { $0[column] }).map(DisplayWidth.of).max() ?? 0
        }
        if let width {
            let shrinkable = shrinking ?? [header.count - 1]
            var excess = widths.reduce(0, +) + 2 * (widths.count - 1) - width
            while excess > 0, let widest = shrinkable.max(by: { widths[$0] < widths[$1] }),
                  widths[widest] > Self.narrowestColumn {
                widths[widest] -= 1
                excess -= 1
            }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                let cut = DisplayWidth.fitted(cell, to: widths[index])
                guard index < cells.count - 1 else { return cut }
                return DisplayWidth.padded(cut, to: widths[index])
            }.joined(separator: "  ")
        }
        var out = terminal.bold(line(header)) + "\n"
        for row in rows { out += line(row) + "\n" }
        return out
    }
}
