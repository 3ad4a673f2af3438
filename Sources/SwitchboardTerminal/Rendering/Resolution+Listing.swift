public import Switchboard

extension Resolution {
    /// Whether a listing shows this as a disabled flag: no value served, and every caller gets its own default.
    public var isDisabled: Bool { value == nil && reason == .disabled }

    /// A listing's value column when nothing is served: what a caller of a disabled flag gets, else `—`.
    public var absentValueText: String { isDisabled ? Self.callersDefaultText : "—" }

    /// How every listing writes a value that is the caller's own default: `(caller's default)`.
    public static let callersDefaultText = "(caller's default)"
}
