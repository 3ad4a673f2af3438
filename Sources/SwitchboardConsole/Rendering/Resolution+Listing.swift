public import Switchboard

extension Resolution {
    /// Whether a listing shows this as a disabled flag: no value served, and every caller gets its own default.
    public var isDisabled: Bool { value == nil && reason == .disabled }

    /// A listing's value column when nothing is served: what a caller of a disabled flag gets, else `—`.
    public var absentValueText: String { isDisabled ? "(caller's default)" : "—" }
}
