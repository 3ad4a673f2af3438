/// One key press, decoded from the bytes a terminal sends.
///
/// Keys name what was pressed, not what it does: `EditingSession` decides that, so the decoder can be
/// tested on bytes alone.
enum Key: Equatable, Sendable {
    /// Printable text: one Unicode scalar. A combining mark arrives as its own key; `LineBuffer` merges it
    /// into the character before it.
    case character(Character)
    /// Ctrl plus a letter, named by the lowercase letter: `.control("a")` is Ctrl-A (byte 0x01).
    /// Ctrl-H, Ctrl-I, Ctrl-J and Ctrl-M are decoded as `.backspace`, `.tab` and `.enter` instead.
    case control(Character)
    /// Alt (Meta) plus a printable ASCII key, which terminals send as ESC followed by the key.
    case meta(Character)
    /// Return: CR or LF.
    case enter
    /// Tab (0x09).
    case tab
    /// Backspace: DEL (0x7F) or BS (0x08), whichever the terminal sends.
    case backspace
    /// The Delete key (`ESC [3~`).
    case delete
    /// A lone Escape key, reported when no sequence followed it in time.
    case escape
    /// The up arrow.
    case up
    /// The down arrow.
    case down
    /// The left arrow.
    case left
    /// The right arrow.
    case right
    /// Home, in any of its encodings.
    case home
    /// End, in any of its encodings.
    case end
    /// Ctrl- or Alt-left arrow.
    case wordLeft
    /// Ctrl- or Alt-right arrow.
    case wordRight
}

/// Turns the bytes read from a terminal in raw mode into `Key`s, one byte at a time.
///
/// It is a small state machine so that a key split across two `read` calls (which happens with escape
/// sequences and multi-byte UTF-8 under load) still decodes. Unknown or malformed sequences are dropped
/// whole rather than leaking their bytes into the line as text.
struct KeyDecoder: Sendable {
    private enum State: Equatable {
        case ground
        /// ESC was read; the next byte decides between CSI, SS3, Alt+key or a lone Escape.
        case escape
        /// `ESC [` was read, followed by these parameter and intermediate bytes.
        case controlSequence([UInt8])
        /// `ESC O` was read (what many terminals send for arrows and Home/End in application mode).
        case singleShift
        /// Part of a multi-byte UTF-8 character: the bits gathered so far, the continuation bytes still
        /// expected, and the smallest scalar this length may encode (to reject overlong forms).
        case utf8(value: UInt32, remaining: Int, minimum: UInt32)
    }

    /// Longest parameter list kept; real sequences are a few bytes, so anything longer is garbage.
    private static let maximumParameterBytes = 16

    private var state = State.ground

    /// Creates a decoder expecting the start of a key.
    init() {}

    /// Whether bytes of an unfinished key are held. The terminal loop then waits only briefly for more,
    /// so that a lone Escape press is not mistaken for the start of a sequence forever.
    var isPending: Bool {
        state != .ground
    }

    /// Decodes a whole byte string, for tests and pasted input. Unfinished trailing bytes are kept.
    mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
        bytes.compactMap { feed($0) }
    }

    /// Ends an unfinished key because no more bytes came: a lone ESC becomes `.escape`, anything else is
    /// dropped.
    mutating func flush() -> Key? {
        defer { state = .ground }
        return state == .escape ? .escape : nil
    }

    /// Takes one byte and returns the key it completes, if any.
    mutating func feed(_ byte: UInt8) -> Key? {
        switch state {
        case .ground:
            return ground(byte)
        case .escape:
            return afterEscape(byte)
        case .controlSequence(var parameters):
            switch byte {
            case 0x20...0x3F:
                guard parameters.count < Self.maximumParameterBytes else {
                    state = .ground
                    return nil
                }
                parameters.append(byte)
                state = .controlSequence(parameters)
                return nil
            case 0x40...0x7E:
                state = .ground
                return Self.controlSequenceKey(parameters: parameters, final: byte)
            default:
                // Not part of a sequence: drop what was gathered and read the byte afresh.
                state = .ground
                return ground(byte)
            }
        case .singleShift:
            state = .ground
            switch byte {
            case UInt8(ascii: "A"): return .up
            case UInt8(ascii: "B"): return .down
            case UInt8(ascii: "C"): return .right
            case UInt8(ascii: "D"): return .left
            case UInt8(ascii: "H"): return .home
            case UInt8(ascii: "F"): return .end
            case UInt8(ascii: "M"): return .enter
            case 0x40...0x7E: return nil
            default: return ground(byte)
            }
        case let .utf8(value, remaining, minimum):
            guard byte & 0xC0 == 0x80 else {
                // A truncated character: drop it and read the byte afresh.
                state = .ground
                return ground(byte)
            }
            let gathered = value << 6 | UInt32(byte & 0x3F)
            guard remaining == 1 else {
                state = .utf8(value: gathered, remaining: remaining - 1, minimum: minimum)
                return nil
            }
            state = .ground
            guard gathered >= minimum, let scalar = Unicode.Scalar(gathered),
                scalar.properties.generalCategory != .control
            else {
                return nil
            }
            return .character(Character(scalar))
        }
    }

    private mutating func ground(_ byte: UInt8) -> Key? {
        switch byte {
        case 0x1B:
            state = .escape
            return nil
        case 0x0D, 0x0A:
            return .enter
        case 0x09:
            return .tab
        case 0x08, 0x7F:
            return .backspace
        case 0x01...0x1A:
            return .control(Character(Unicode.Scalar(byte - 1 + UInt8(ascii: "a"))))
        case 0x20...0x7E:
            return .character(Character(Unicode.Scalar(byte)))
        case 0xC2...0xDF:
            state = .utf8(value: UInt32(byte & 0x1F), remaining: 1, minimum: 0x80)
            return nil
        case 0xE0...0xEF:
            state = .utf8(value: UInt32(byte & 0x0F), remaining: 2, minimum: 0x800)
            return nil
        case 0xF0...0xF4:
            state = .utf8(value: UInt32(byte & 0x07), remaining: 3, minimum: 0x1_0000)
            return nil
        default:
            // NUL, the rarely used Ctrl-\ ] ^ _, stray continuation bytes and bytes UTF-8 never uses.
            return nil
        }
    }

    private mutating func afterEscape(_ byte: UInt8) -> Key? {
        switch byte {
        case UInt8(ascii: "["):
            state = .controlSequence([])
            return nil
        case UInt8(ascii: "O"):
            state = .singleShift
            return nil
        case 0x1B:
            // ESC ESC: the first was a lone Escape; the second may start a sequence.
            state = .escape
            return .escape
        case 0x20...0x7E:
            state = .ground
            return .meta(Character(Unicode.Scalar(byte)))
        default:
            state = .ground
            return ground(byte)
        }
    }

    /// Maps a complete `ESC [ parameters final` sequence to a key, or `nil` for keys the editor ignores
    /// (Insert, Page Up, function keys, focus reports, ...).
    private static func controlSequenceKey(parameters: [UInt8], final: UInt8) -> Key? {
        let fields = parameters.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
            .map { Int(String(decoding: $0, as: UTF8.self)) }
        let number = fields.first.flatMap { $0 }
        // xterm encodes modifiers as 1 + (shift 1 | alt 2 | ctrl 4) in the second field: `ESC [1;5C`.
        let modifiers = fields.count > 1 ? (fields[1] ?? 1) - 1 : 0
        let byWord = modifiers & 0b110 != 0
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return byWord ? .wordRight : .right
        case UInt8(ascii: "D"): return byWord ? .wordLeft : .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "~"):
            switch number {
            case 1, 7: return .home
            case 4, 8: return .end
            case 3: return .delete
            default: return nil
            }
        default:
            return nil
        }
    }
}
