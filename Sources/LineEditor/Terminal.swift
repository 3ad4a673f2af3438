#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading and writing whole buffers on file descriptors, retrying what `read`/`write` leave undone.
enum RawIO {
    /// Writes all of `bytes`, retrying after interrupts and partial writes. Returns whether it all went.
    @discardableResult
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return false
                }
            }
            return true
        }
    }

    /// Writes `text` as UTF-8.
    @discardableResult
    static func writeAll(_ text: String, to descriptor: Int32) -> Bool {
        writeAll(Array(text.utf8), to: descriptor)
    }

    /// Reads until end of file; `nil` on an error.
    static func readAll(from descriptor: Int32) -> [UInt8]? {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count > 0 {
                result += chunk[..<count]
            } else if count == 0 {
                return result
            } else if errno != EINTR {
                return nil
            }
        }
    }

    /// Waits up to `milliseconds` for `descriptor` to have input (or end of file). Returns whether it has.
    static func waitForInput(on descriptor: Int32, milliseconds: Int32) -> Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let result = poll(&request, 1, milliseconds)
            if result >= 0 {
                return result > 0
            }
            if errno != EINTR {
                // Let the caller's read find out what is wrong rather than waiting forever.
                return true
            }
        }
    }
}

/// The terminal's raw mode: entered on creation, left by `restore()`.
///
/// Raw mode hands every key to the editor as it is typed, with no echo, no line editing by the kernel,
/// and no signals from Ctrl-C or Ctrl-Z (they arrive as bytes 0x03 and 0x1A). Output processing (OPOST)
/// stays on, so "\n" still moves to the start of the next line for anything else the program prints.
struct RawMode {
    private let descriptor: Int32
    private let original: termios

    /// Puts the terminal on `descriptor` into raw mode, or returns `nil` when it isn't a terminal whose
    /// mode can be read and set.
    init?(descriptor: Int32) {
        var original = termios()
        guard tcgetattr(descriptor, &original) == 0 else { return nil }
        var raw = original
        // BRKINT: no SIGINT on a break; ICRNL: Enter arrives as CR, not translated; INPCK/ISTRIP: keep all
        // eight bits (UTF-8); IXON: Ctrl-S and Ctrl-Q reach the editor instead of pausing output.
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_cflag |= tcflag_t(CS8)
        // ECHO: the editor draws the line itself; ICANON: bytes arrive at once, not per line; ISIG: Ctrl-C,
        // Ctrl-Z and Ctrl-\ arrive as bytes; IEXTEN: Ctrl-V and Ctrl-O arrive as bytes too.
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        // Each read returns as soon as one byte is there, and waits for it without a timeout.
        withUnsafeMutableBytes(of: &raw.c_cc) { controlCharacters in
            controlCharacters[Int(VMIN)] = 1
            controlCharacters[Int(VTIME)] = 0
        }
        // TCSANOW, not TCSAFLUSH: keys typed before the prompt appeared are kept, not thrown away.
        guard tcsetattr(descriptor, TCSANOW, &raw) == 0 else { return nil }
        self.descriptor = descriptor
        self.original = original
    }

    /// Puts the terminal back into the mode it had before.
    func restore() {
        var original = original
        _ = tcsetattr(descriptor, TCSANOW, &original)
    }
}

/// Questions about the terminal behind a descriptor.
enum Terminal {
    /// The width assumed when the terminal can't tell its own.
    static let defaultColumns = 80

    /// The width in cells of the first of `descriptors` that is a terminal, as the kernel reports it (kept
    /// current by the terminal emulator on resize, so asking on every redraw follows resizes without a
    /// SIGWINCH handler).
    static func columns(of descriptors: Int32...) -> Int {
        descriptors.lazy.compactMap(TerminalWidth.reported(by:)).first ?? defaultColumns
    }

    /// Whether `descriptor` is a terminal.
    static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }
}

/// The width of the terminal behind a descriptor: the one place that asks the kernel, for the line editor and for
/// the command line's tables.
package enum TerminalWidth {
    /// The width in cells the kernel reports for the terminal behind `descriptor`; `nil` when it is no terminal
    /// (a pipe, a file) or reports no width.
    package static func reported(by descriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
