import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Switchboard

/// The console's sign-in through the identity provider, outside the access check (the person has no credential
/// yet):
///
/// | route | answers |
/// |---|---|
/// | `GET /console/sign-in/options` | `{"provider": <as below, or null>, "readOnlyWithoutToken": true}`: what the
///   sign-in dialog offers |
/// | `GET /console/oidc/provider` | `{"issuer": …, "url": "/console/oidc/login"}`, or `null` |
/// | `GET /console/oidc/login?next=#/…` | 302 to the provider's authorization endpoint (code flow with PKCE) |
/// | `GET /console/oidc/callback?code=…&state=…` | 302 to `/#/session?token=…&next=…`, or `/#/session?error=…` |
///
/// Without `oidc:` in the access file login and callback answer 404 with a hint. The redirect URI is
/// `{scheme}://{Host}/console/oidc/callback` of the login request, the scheme from `X-Forwarded-Proto` behind a
/// proxy. The session token travels in the URL's fragment, which the browser never sends to a server; the page
/// stores it as it stores a pasted token and removes it from the address bar.
struct ConsoleSignInRoutes {
    let access: AccessControl

    /// The path of the login route, which the page links.
    static let loginPath = "/console/oidc/login"
    /// The path of the callback, which the provider must allow as a redirect URI.
    static let callbackPath = "/console/oidc/callback"

    func register(on console: RouterGroup<ServerContext>) {
        console.get("sign-in/options", use: options)
        console.get("oidc/provider", use: provider)
        console.get("oidc/login", use: login)
        console.get("oidc/callback", use: callback)
        // Not HEAD, which the router would answer from the GET route: a sign-in begun or a one-time code redeemed
        // by a link checker's HEAD is a sign-in lost (or counted as failed).
        let refuse = ServerError.methodNotAllowed(allow: [.get])
        console.head("oidc/login", use: refuse)
        console.head("oidc/callback", use: refuse)
    }

    /// The `signIn` member of the console's session document, or `nil` without an identity provider.
    static func signInDocument(_ access: AccessControl) -> Value? {
        guard let settings = (access.identity as? OIDCSignIn)?.settings else { return nil }
        return ["issuer": .string(settings.issuer.absoluteString), "url": .string(loginPath)]
    }

    private func signIn() throws(ServerError) -> OIDCSignIn {
        guard let signIn = access.identity as? OIDCSignIn else {
            throw .admin(.notFound, "sign-in through an identity provider is not configured on this server",
                         hint: "add `oidc:` with an issuer and an audience to the access file (--access-file)")
        }
        return signIn
    }

    /// What the sign-in dialog offers, asked before anyone signs in: the identity provider, and whether the console
    /// opens read-only without a token (elsewhere the dialog does not offer it, since it could only be refused).
    @Sendable func options(_ request: Request, context: ServerContext) async throws -> Response {
        let document: Value = [
            "provider": Self.signInDocument(access) ?? .null,
            "readOnlyWithoutToken": .bool(access.consoleIsOpen),
        ]
        return Response.json(document.json)
    }

    /// The sign-in dialog asks on every server, so the answer without a provider is `null`, not a 404 that the
    /// browser would log as an error.
    @Sendable func provider(_ request: Request, context: ServerContext) async throws -> Response {
        Response.json(Self.signInDocument(access)?.json ?? "null")
    }

    @Sendable func login(_ request: Request, context: ServerContext) async throws -> Response {
        let signIn = try signIn()
        let next = Self.deepLink(request.uri.queryParameters["next"].map(String.init))
        let address = access.clientAddress(of: request, context: context)
        if let wait = access.limiter.retryAfter(for: address) {
            signIn.metrics.recordAuthFailure(reason: "rate_limited")
            return Self.toPage(error: "too many failed sign-ins from this address; try again in \(wait) s",
                               next: next)
        }
        guard let host = request.head.authority, !host.isEmpty else {
            throw ServerError.admin(.badRequest, "the sign-in request has no Host header")
        }
        let forwarded = request.headers[Self.forwardedProto]?.split(separator: ",").first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let scheme = forwarded == "https" ? "https" : "http"
        let redirectURI = "\(scheme)://\(host)\(Self.callbackPath)"
        do {
            let url = try await signIn.beginSignIn(redirectURI: redirectURI, next: next)
            return Response(status: .found, headers: [.location: url.absoluteString])
        } catch {
            return failed(signIn, error, address: address, next: next)
        }
    }

    @Sendable func callback(_ request: Request, context: ServerContext) async throws -> Response {
        let signIn = try signIn()
        let query = request.uri.queryParameters
        let address = access.clientAddress(of: request, context: context)
        if let wait = access.limiter.retryAfter(for: address) {
            signIn.metrics.recordAuthFailure(reason: "rate_limited")
            return Self.toPage(error: "too many failed sign-ins from this address; try again in \(wait) s",
                               next: "#/")
        }
        if let refused = query["error"] {
            let description = query["error_description"].map { ": \($0)" } ?? ""
            return failed(signIn, .init(reason: "provider_refused",
                                        message: "the identity provider refused the sign-in (\(refused)\(description))"),
                          address: address, next: "#/")
        }
        guard let code = query["code"].map(String.init), let state = query["state"].map(String.init),
              !code.isEmpty, !state.isEmpty
        else {
            return failed(signIn, .init(reason: "malformed", message: "the identity provider sent no code or state"),
                          address: address, next: "#/")
        }
        do {
            let session = try await signIn.finishSignIn(code: code, state: state)
            signIn.logger.info(
                "\(PersonName.shown(session.principal.name)) signed in to the console (\(session.principal.grant))")
            return Self.toPage(["token": session.token, "next": session.next])
        } catch {
            return failed(signIn, error, address: address, next: "#/")
        }
    }

    /// A failed sign-in: counted, logged, held against the address (``AccessControl/holdFailure(against:reason:)``),
    /// and shown on the page.
    private func failed(
        _ signIn: OIDCSignIn, _ refusal: OIDCSignIn.Refusal, address: String, next: String
    ) -> Response {
        signIn.metrics.recordAuthFailure(reason: refusal.reason)
        signIn.logger.warning(
            "refused a console sign-in from \(address): \(refusal.message) (\(refusal.reason))")
        access.holdFailure(against: address, reason: refusal.reason)
        return Self.toPage(error: "Sign-in failed: " + refusal.message, next: next)
    }

    private static func toPage(error: String, next: String) -> Response {
        toPage(["error": error, "next": next])
    }

    /// A redirect to the page's `#/session` with `fields` in the fragment's query.
    private static func toPage(_ fields: KeyValuePairs<String, String>) -> Response {
        let query = IdentityProvider.formEncoded(fields.map { ($0.key, $0.value) })
        return Response(status: .found, headers: [.location: "/#/session?" + query])
    }

    /// The page's deep link to return to: a hash of the console (`#/…`), else the list.
    static func deepLink(_ next: String?) -> String {
        guard let next, next.hasPrefix("#/"), next.count <= 2000,
              !next.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return "#/" }
        return next
    }

    static let forwardedProto = HTTPField.Name("X-Forwarded-Proto")!
}
