/// A key whose resolution changed, with its values: what subscribers, per-key observers and streams receive.
///
/// The values are those for the empty context (a remote board's: for its own context). A handler has what it
/// needs without reading the board again.
public struct ValueChange: Sendable, Hashable {
    /// The key.
    public var key: String
    /// The value before (`nil`: the key was not defined, or served no value, as a disabled flag).
    public var old: Value?
    /// How the key resolves now: its value, variant, reason, layer and error (`nil`: the key is no longer defined).
    public var resolution: Resolution?
    /// The revision of the board that the change made (``FlagReader/revision``): a change at or below a revision
    /// already read is older than what was read. 0 from a board that does not number its publications.
    public var revision: UInt64

    /// Creates a change; boards other than `Board` report theirs with it.
    public init(of key: String, from old: Value?, to resolution: Resolution?, revision: UInt64 = 0) {
        self.key = key
        self.old = old
        self.resolution = resolution
        self.revision = revision
    }

    /// The value now (`nil`: the key is no longer defined, or it serves no value, as a disabled flag does: the
    /// caller's default applies).
    public var new: Value? { resolution?.value }

    /// The layer the new value comes from.
    public var layer: Layer? { resolution?.layer }

    /// Why the new value (`nil`: the key is no longer defined).
    public var reason: Reason? { resolution?.reason }
}

extension ValueChange: CustomStringConvertible {
    /// The change in one line, for logs and `print`: `app.greeting: hello → hey there (runtime, revision 2)`;
    /// `—` where there is no value.
    public var description: String {
        var detail = [resolution?.layer?.rawValue, revision > 0 ? "revision \(revision)" : nil].compactMap { $0 }
        if let code = resolution?.errorCode { detail.insert(code.rawValue, at: 0) }
        let suffix = detail.isEmpty ? "" : " (\(detail.joined(separator: ", ")))"
        return "\(key): \(old?.plainText ?? "—") → \(new?.plainText ?? "—")\(suffix)"
    }
}
