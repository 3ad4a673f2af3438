import Foundation
import LineEditor
public import Switchboard
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
public import Darwin
#endif

/// Output to a terminal or a pipe: colour only on a terminal and never when `NO_COLOR` is set.
///
/// Shared by the command line and the REPL, so both colour the same things the same way and honour the same
/// switches.
public struct Terminal: Sendable {
    /// The descriptor written to.
    public let fd: Int32
    /// Whether text is painted with ANSI colours.
    public let colors: Bool

    /// Output to `fd`, coloured when it is a terminal and `NO_COLOR` is unset or empty.
    public init(fd: Int32) {
        self.init(fd: fd, colors: isatty(fd) == 1 && !Terminal.noColorRequested)
    }

    /// Output to `fd` with colour decided by the caller (tests, or a REPL reading a script from a pipe).
    public init(fd: Int32, colors: Bool) {
        self.fd = fd
        self.colors = colors
    }

    /// Whether the environment asks for no colour (<https://no-color.org>: any non-empty `NO_COLOR`).
    public static var noColorRequested: Bool {
        ProcessInfo.processInfo.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
    }

    /// The width assumed for output that goes to no terminal (a pipe, a file) when `COLUMNS` does not say.
    public static let pipedColumns = 100

    /// The width to fit output to: `COLUMNS` when it holds a positive number, else the width of the terminal
    /// behind ``fd``, else ``pipedColumns``.
    public var columns: Int {
        if let text = ProcessInfo.processInfo.environment["COLUMNS"], let columns = Int(text), columns > 0 {
            return columns
        }
        return TerminalWidth.reported(by: fd) ?? Self.pipedColumns
    }

    /// Standard output.
    public static let standardOutput = Terminal(fd: 1)
    /// Standard error.
    public static let standardError = Terminal(fd: 2)

    /// Writes all of `text`, retrying short writes; gives up quietly when the reader has gone.
    public func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return }
            offset += n
        }
    }

    /// `text` wrapped in the ANSI SGR `code` when colours are on.
    public func paint(_ text: String, _ code: String) -> String {
        colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// Bold text.
    public func bold(_ text: String) -> String { paint(text, "1") }
    /// Dim text, for what matters least.
    public func dim(_ text: String) -> String { paint(text, "2") }
    /// Red text, for errors.
    public func red(_ text: String) -> String { paint(text, "31") }
    /// Green text, for winners and success.
    public func green(_ text: String) -> String { paint(text, "32") }
    /// Yellow text, for warnings and overridden values.
    public func yellow(_ text: String) -> String { paint(text, "33") }
    /// Cyan text, for hints.
    public func cyan(_ text: String) -> String { paint(text, "36") }

    /// A diagnostic in the one rendered form, with the severity coloured on a terminal.
    public func render(_ diagnostic: Diagnostic) -> String {
        guard colors else { return diagnostic.description }
        var text = diagnostic.location.map { bold("\($0): ") } ?? ""
        text += diagnostic.isError ? red("error:") : yellow("warning:")
        text += " " + diagnostic.message
        if let hint = diagnostic.hint { text += "\n  " + cyan("hint:") + " " + hint }
        return text
    }

    /// Writes a diagnostic and a line break.
    public func print(diagnostic: Diagnostic) {
        write(render(diagnostic) + "\n")
    }
}
