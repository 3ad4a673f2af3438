import Foundation
import HTTPTypes
import Hummingbird
import Locking
import Logging
import ServiceLifecycle
import Switchboard

/// Decides who sent each request, and keeps the access file current.
///
/// Credentials, tried in order: the built-in admin and read tokens (`SWITCHBOARD_ADMIN_TOKEN`,
/// `SWITCHBOARD_READ_TOKEN`, the people `admin-token` and `read-token`), a token of the access file (matched by its
/// SHA-256), then the identity provider's JWTs and console sessions. A credential none of them knows is a failed
/// sign-in: counted in `switchboard_auth_failures_total{reason}`, logged without the token, and after 10 from one
/// address within 60 seconds that address gets 429 with `Retry-After`.
///
/// The access file is watched (every 200 ms): a change takes effect at once, without a restart; a file that turns
/// invalid is reported (logged, and in `/healthz`) while the last good one stays in force.
final class AccessControl: Service, Sendable {
    /// Where a request is going.
    enum Scope {
        /// OFREP evaluation and its event stream.
        case ofrep
        /// The admin API under `/v1`.
        case admin
        /// The console's data routes.
        case console
    }

    /// What `/healthz` says of the access file.
    struct Health {
        /// The access file's path.
        var path: String
        /// People in the file in force.
        var people: Int
        /// Why the file on disk is not the one in force; `nil` when it is.
        var problem: String?
        /// Why the identity provider's tokens cannot be verified now; `nil` when they can or there is none.
        var identityProblem: String?
    }

    let adminToken: AccessToken?
    let readToken: AccessToken?
    let path: String?
    private let metrics: ServerMetrics
    private let logger: Logger
    let limiter: FailureLimiter
    /// The proxies whose `X-Forwarded-For` names the client the limiter counts.
    let trustedProxies: TrustedProxies
    private let makeIdentity: @Sendable (OIDCSettings) -> (any BearerVerifier)?
    private let state: Locked<State>

    private struct State {
        var file: AccessFile?
        var byHash: [String: AccessFile.Person] = [:]
        var fingerprint: FileFingerprint?
        var problem: String?
        var identity: (any BearerVerifier)?
    }

    /// Why the access file could not be read when the server was made; ``FlagServer`` refuses to start then, since
    /// a server told to use an access file must not run without a good one.
    let startupFailure: AccessFile.Invalid?

    /// Reads the access file, when there is one.
    init(
        adminToken: AccessToken?, readToken: AccessToken?, accessFile path: String?, metrics: ServerMetrics,
        logger: Logger, limiter: FailureLimiter = FailureLimiter(), trustedProxies: TrustedProxies = .none,
        makeIdentity: @escaping @Sendable (OIDCSettings) -> (any BearerVerifier)? = { _ in nil }
    ) {
        self.trustedProxies = trustedProxies
        self.adminToken = adminToken
        self.readToken = readToken
        self.path = path
        self.metrics = metrics
        self.logger = logger
        self.limiter = limiter
        self.makeIdentity = makeIdentity
        var initial = State()
        var failure: AccessFile.Invalid?
        if let path {
            initial.fingerprint = FileFingerprint(path: path)
            do {
                let (file, warnings) = try AccessFile.load(path: path)
                for warning in warnings { logger.warning("\(warning.description)") }
                initial.file = file
                initial.byHash = Self.index(file)
                initial.identity = file.oidc.flatMap(makeIdentity)
            } catch {
                failure = error
                initial.problem = error.description
            }
        }
        startupFailure = failure
        state = Locked(initial)
    }

    /// The access file in force, if any.
    var file: AccessFile? { state.withLock { $0.file } }

    /// The identity provider's verifier in force, if the access file configures one.
    var identity: (any BearerVerifier)? { state.withLock { $0.identity } }

    /// Whether OFREP answers a request without a token.
    var ofrepIsOpen: Bool {
        guard let file else { return readToken == nil }
        return file.anonymousRead
    }

    /// Whether the console opens read-only without a token: on a server with no read token and no access file.
    var consoleIsOpen: Bool { file == nil && readToken == nil }

    /// Whether anyone can be let in at all; without it OFREP and the console skip the checks altogether.
    var isConfigured: Bool { adminToken != nil || readToken != nil || path != nil }

    /// What `/healthz` reports; `nil` without an access file.
    var health: Health? {
        guard let path else { return nil }
        let (people, problem, identity) = state.withLock { ($0.file?.people.count ?? 0, $0.problem, $0.identity) }
        // Outside the lock: the provider's state has a lock of its own.
        return Health(path: path, people: people, problem: problem, identityProblem: identity?.problem)
    }

    // MARK: - Who is it

    /// The principal a request comes from.
    ///
    /// - Throws: 401 without a credential where one is needed and for one that is not valid here (unknown, expired,
    ///   badly signed: RFC 6750's `invalid_token`, as OFREP's 401 "missing, invalid, or expired"), 403 for a person
    ///   the identity provider vouches for whom no group gives a role, 503 while the identity provider cannot be
    ///   reached (the credential may be fine: a client retries), 429 for an address that failed too often. OFREP
    ///   refusals are shaped as OFREP errors, the rest as admin errors.
    func principal(of request: Request, context: ServerContext, scope: Scope) async throws(ServerError) -> Principal {
        let address = clientAddress(of: request, context: context)
        if let wait = limiter.retryAfter(for: address) {
            metrics.recordAuthFailure(reason: "rate_limited")
            var error = refusal(scope, .tooManyRequests,
                                "too many failed sign-ins from this address; try again in \(wait) s")
            error.headers[.retryAfter] = "\(wait)"
            throw error
        }
        var presented = AccessMiddleware.bearer(in: request)
        if presented == nil, scope == .ofrep { presented = request.headers[AccessMiddleware.apiKey] }
        guard let presented, !presented.isEmpty else { return try anonymous(scope) }
        if let adminToken, adminToken.matches(presented) {
            return Principal(name: Principal.adminTokenName, grant: Grant(role: .admin), source: .builtIn)
        }
        if let readToken, readToken.matches(presented) {
            return Principal(name: Principal.readTokenName, grant: Grant(role: .read), source: .builtIn)
        }
        let (person, identity) = state.withLock { state in
            (state.byHash.isEmpty ? nil : state.byHash[TokenDigest.sha256(of: presented)], state.identity)
        }
        if let person { return Principal(name: person.name, grant: person.grant, source: .token) }
        if let identity {
            switch await identity.principal(forBearer: presented) {
            case .verified(let principal): return principal
            case .refused(let reason, let message): throw failure(scope, address: address, reason: reason, message)
            case .notMine: break
            }
        }
        if scope == .admin, adminToken == nil, path == nil { throw Self.adminOff }
        throw failure(scope, address: address, reason: "unknown_token", "this token is not valid on this server")
    }

    /// Whether the request carries a credential this server accepts (any role); a wrong one counts as a failed
    /// sign-in, as anywhere.
    func acceptsCredential(of request: Request, context: ServerContext) async -> Bool {
        guard AccessMiddleware.bearer(in: request) != nil || request.headers[AccessMiddleware.apiKey] != nil else {
            return false
        }
        return (try? await principal(of: request, context: context, scope: .ofrep)) != nil
    }

    /// The address failed sign-ins are held against: the connection's, or behind a trusted proxy the client's
    /// from `X-Forwarded-For` (``TrustedProxies``).
    func clientAddress(of request: Request, context: ServerContext) -> String {
        trustedProxies.client(peer: context.remoteAddress, forwardedFor: request.headers[values: Self.forwardedFor])
    }

    private static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    /// The refusal of the admin API on a server with no admin token and no access file: no credential can write.
    private static let adminOff = ServerError.admin(
        .forbidden, "the admin API is off: no admin token is configured",
        hint: "set SWITCHBOARD_ADMIN_TOKEN, pass --admin-token-file or --access-file when starting the server")

    /// The principal of a request without a credential, where reads are open.
    private func anonymous(_ scope: Scope) throws(ServerError) -> Principal {
        let open = switch scope {
        case .ofrep: ofrepIsOpen
        case .console: consoleIsOpen
        case .admin: false
        }
        if open { return Principal(name: "anonymous", grant: Grant(role: .read), source: .anonymous) }
        if scope == .admin, adminToken == nil, path == nil { throw Self.adminOff }
        let message = switch scope {
        case .ofrep: "this server needs a token"
        case .admin: "the admin API needs 'Authorization: Bearer <token>'"
        case .console: "this server needs a token to open the console"
        }
        var error = refusal(scope, .unauthorized, message)
        error.headers[.wwwAuthenticate] = "Bearer"
        throw error
    }

    /// A failed sign-in: counted, logged without the credential, and held against the address
    /// (``holdFailure(against:reason:)``).
    private func failure(_ scope: Scope, address: String, reason: String, _ message: String) -> ServerError {
        metrics.recordAuthFailure(reason: reason)
        logger.warning("refused a credential from \(address): \(message) (\(reason))")
        holdFailure(against: address, reason: reason)
        switch reason {
        case "no_role":
            return refusal(scope, .forbidden, message)
        case "provider_unavailable":
            var error = refusal(scope, .serviceUnavailable, message)
            // The provider is asked again no sooner than this.
            error.headers[.retryAfter] = "\(IdentityProvider.defaultRefreshInterval.components.seconds)"
            return error
        default:
            var error = refusal(scope, .unauthorized, message)
            error.headers[.wwwAuthenticate] = #"Bearer error="invalid_token""#
            return error
        }
    }

    /// Holds a failed sign-in against `address`, and logs the one that shuts it out: an operator sees the lockout
    /// (someone guessing tokens, or a proxy not named with `--trusted-proxy`) without counting warnings. Two
    /// reasons are no guess at a credential and count against nobody: `expired`, which a person's open tab
    /// presents in good faith (and offices share an address), and `provider_unavailable`, where the person did
    /// nothing wrong.
    func holdFailure(against address: String, reason: String) {
        guard reason != "expired", reason != "provider_unavailable", limiter.recordFailure(of: address) else { return }
        let seconds = Int(limiter.window)
        logger.warning("\(address) is refused for up to \(seconds) s after \(limiter.limit) failed sign-ins (429)")
    }

    /// A refusal in the shape of the API refusing.
    func refusal(_ scope: Scope, _ status: HTTPResponse.Status, _ message: String, hint: String? = nil) -> ServerError {
        scope == .ofrep ? .ofrep(status, code: "GENERAL", details: message) : .admin(status, message, hint: hint)
    }

    /// Refuses a write the principal's grant does not cover, and logs the refusal: someone writing beyond their
    /// role is the operator's business as much as a wrong token is.
    ///
    /// - Throws: 403 with the reason.
    static func checkWrite(_ key: String, by principal: Principal, logger: Logger?) throws(ServerError) {
        guard let reason = principal.grant.refusal(toWrite: key) else { return }
        let message = "\(PersonName.shown(principal.name)) may not change \(key): \(reason)"
        logger?.notice("refused a write: \(message)")
        throw .admin(.forbidden, message, hint: "ask an admin for a role that covers it")
    }

    /// Refuses what only an admin may do, and logs the refusal.
    ///
    /// - Throws: 403 with the reason.
    static func checkAdmin(_ principal: Principal, doing what: String, logger: Logger?) throws(ServerError) {
        guard principal.grant.role < .admin else { return }
        let message = "\(PersonName.shown(principal.name)) may not \(what): only the role 'admin' may"
        logger?.notice("refused a write: \(message)")
        throw .admin(.forbidden, message, hint: "ask an admin")
    }

    // MARK: - Keeping the file current

    /// Watches the access file until the service group shuts down.
    func run() async throws {
        // A service that returns ends the group: without a file, just wait for the shutdown.
        guard path != nil else {
            try? await gracefulShutdown()
            return
        }
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            try? await Task.sleep(for: .milliseconds(200))
            reloadIfChanged()
        }
    }

    /// Reads the access file again when it changed on disk: the new one takes effect, or, when it is invalid, the
    /// last good one stays and the problem is reported.
    func reloadIfChanged() {
        guard let path else { return }
        let fingerprint = FileFingerprint(path: path)
        guard state.withLock({ $0.fingerprint != fingerprint }) else { return }
        do {
            let (file, warnings) = try AccessFile.load(path: path)
            for warning in warnings { logger.warning("\(warning.description)") }
            let (changedIdentity, people) = state.withLock { state in
                let changed = state.file?.oidc != file.oidc
                if changed { state.identity = file.oidc.flatMap(makeIdentity) }
                state.file = file
                state.byHash = Self.index(file)
                state.fingerprint = fingerprint
                state.problem = nil
                return (changed, file.people.count)
            }
            logger.info("access file \(path) reloaded: \(people) people\(changedIdentity ? ", new sign-in settings" : "")")
        } catch {
            let problem = error.description
            let isNew = state.withLock { state in
                state.fingerprint = fingerprint
                defer { state.problem = problem }
                return state.problem != problem
            }
            if isNew {
                logger.error("the access file \(path) is invalid; the last good one stays in force:\n\(problem)")
            }
        }
    }

    private static func index(_ file: AccessFile) -> [String: AccessFile.Person] {
        Dictionary(file.people.map { ($0.tokenSHA256, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
