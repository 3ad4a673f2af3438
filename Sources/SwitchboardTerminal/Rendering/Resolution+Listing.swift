public import Switchboard

extension Resolution {
    /// Whether a listing shows this as a disabled flag: no value served, and every caller gets its own default.
    public var isDisabled: Bool { value == nil && reason == .disabled }

    /// A listing's value column when nothing is served: what a caller of a disabled flag gets, else `—`.
    public var absentValueText: String { isDisabled ? Self.callersDefaultText : "—" }

    /// How every listing writes a value that is the caller's own default: `(caller's default)`.
    public static let callersDefaultText = "(caller's default)"

    /// `KEY = (disabled: callers get their own default)`: the line `set`, `reset` and the REPL's `get` print for a
    /// disabled flag, which serves no value and so has neither a value nor a layer to show.
    public static func disabledLine(key: String) -> String {
        "\(key) = (\(Message.disabled.text))"
    }
}
