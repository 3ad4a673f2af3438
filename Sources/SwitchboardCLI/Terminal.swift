import Foundation
import Switchboard
import YAML
#if canImport(Glibc)
import Glibc
#endif

/// Output to a terminal or a pipe: colour only on a terminal and never when `NO_COLOR` is set.
struct Terminal: Sendable {
    let fd: Int32
    let colors: Bool

    init(fd: Int32) {
        self.fd = fd
        let noColor = ProcessInfo.processInfo.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        self.colors = isatty(fd) == 1 && !noColor
    }

    static let standardOutput = Terminal(fd: 1)
    static let standardError = Terminal(fd: 2)

    func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return }
            offset += n
        }
        bytes.removeAll()
    }

    func paint(_ text: String, _ code: String) -> String {
        colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    func bold(_ text: String) -> String { paint(text, "1") }
    func dim(_ text: String) -> String { paint(text, "2") }
    func red(_ text: String) -> String { paint(text, "31") }
    func green(_ text: String) -> String { paint(text, "32") }
    func yellow(_ text: String) -> String { paint(text, "33") }
    func cyan(_ text: String) -> String { paint(text, "36") }

    /// A diagnostic in the one rendered form, with the severity coloured on a terminal.
    func render(_ diagnostic: Diagnostic) -> String {
        guard colors else { return diagnostic.description }
        var text = diagnostic.location.map { bold("\($0): ") } ?? ""
        text += diagnostic.isError ? red("error:") : yellow("warning:")
        text += " " + diagnostic.message
        if let hint = diagnostic.hint { text += "\n  " + cyan("hint:") + " " + hint }
        return text
    }

    func print(diagnostic: Diagnostic) {
        write(render(diagnostic) + "\n")
    }
}

/// A plain text table: columns padded to their widest cell, the last column left ragged.
struct Table {
    var header: [String]
    var rows: [[String]] = []

    func render(terminal: Terminal) -> String {
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

extension Diagnostic {
    /// The diagnostic as a JSON object for `--json` output.
    var jsonValue: Value {
        var object: [String: Value] = ["severity": .string(severity.rawValue), "message": .string(message)]
        if let location {
            object["file"] = .string(location.file)
            object["line"] = .int(location.line)
            object["column"] = .int(location.column)
        }
        if let hint { object["hint"] = .string(hint) }
        return .object(object)
    }
}
