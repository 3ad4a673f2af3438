/// Who made a write, as the audit log records it: the actor recorded, the name the client claimed when that was
/// another, and whether the person was verified.
///
/// A server that authenticates its callers records the person it verified as ``actor`` and keeps a name the
/// client sent beside it as ``claimedActor``, so a request can never pass itself off as someone else. Every
/// other write (the command line, the REPL, a library call) names its actor itself and is recorded unverified:
///
/// ```swift
/// let verified = Attribution(actor: "ana", claimedActor: "mallory", verified: true)
/// let local = Attribution.unverified("cli:bob")
/// ```
public struct Attribution: Sendable, Hashable {
    /// Who is recorded as having made the write: the verified person, or the name the writer gave.
    public var actor: String
    /// The name the client sent, kept beside ``actor`` when it differs from it; `nil` when the client sent none,
    /// or the same name. JSON `"claimed_actor"`.
    public var claimedActor: String?
    /// Whether the server verified that ``actor`` made the write (a person authenticated by a token, say);
    /// `false` for every write whose actor is only what the writer said.
    public var verified: Bool

    /// Creates an attribution; a `claimedActor` equal to `actor` is dropped, as it adds nothing.
    public init(actor: String, claimedActor: String? = nil, verified: Bool) {
        self.actor = actor
        self.claimedActor = claimedActor == actor ? nil : claimedActor
        self.verified = verified
    }

    /// A write recorded under the name its writer gave, unchecked: the command line, the REPL, library calls.
    public static func unverified(_ actor: String) -> Attribution {
        Attribution(actor: actor, verified: false)
    }
}
