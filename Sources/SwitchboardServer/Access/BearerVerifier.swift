/// Verifies bearer credentials that are not tokens of the access file: the identity provider's JWTs and console
/// sessions begun by signing in through it.
protocol BearerVerifier: Sendable {
    /// Who presents `token`, or why not.
    func principal(forBearer token: String) async -> BearerVerdict
    /// Why credentials cannot be verified now (the identity provider could not be reached at the last try);
    /// `nil` when they can. `/healthz` reports it.
    var problem: String? { get }
}

/// What a ``BearerVerifier`` made of a credential.
enum BearerVerdict: Sendable {
    /// Not a credential this verifier issues or knows (not a JWT, not a session): try the next.
    case notMine
    /// A verified principal.
    case verified(Principal)
    /// A credential of this verifier that fails: `reason` is the metric's label (`expired`, `bad_signature`, …),
    /// `message` what the client is told.
    case refused(reason: String, message: String)
}
