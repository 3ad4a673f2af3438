import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Switchboard

/// The admin API under `/v1`, behind ``AccessControl``: every route needs a credential; `GET` routes the role
/// `read`, writes a role that covers the key (`write` in its namespaces, or `admin`), and `DELETE /v1/overrides`
/// the role `admin` (403 with the reason otherwise).
///
/// | route | answers |
/// |---|---|
/// | `GET /v1/flags` | 200 every definition with its resolved value, layer and reason |
/// | `GET /v1/flags/{key}` | 200 every layer of the key (as `switchboard explain`), 404 unknown key |
/// | `PUT /v1/overrides/{key}` | 200 what it serves, its version as `ETag`; 400, 404 unknown key, 412, 413 |
/// | `PUT /v1/overrides/{key}?dry_run=1` | the same answer as the write, and nothing written |
/// | `DELETE /v1/overrides/{key}` | 200 the resolution without the override, 404 unknown key |
/// | `DELETE /v1/overrides` | 200 `{"version", "removed", "keys"}`: every override removed; admin only |
/// | `GET /v1/audit?limit=N` | 200 the last N entries of the history (default 100), expiries included |
/// | any other method | 405 with `Allow` |
///
/// A `PUT` body is `{"value": <JSON>}`, typed JSON checked against the definition, or `{"text": "…"}`, parsed
/// by the key's type exactly as `switchboard set KEY TEXT` parses it. The audit records the verified sender (the
/// person of the token, `admin-token`, or the identity provider's name claim); an `"actor"` in the body (or an
/// `actor` query parameter for `DELETE`) is kept beside it as `claimed_actor`, never instead of it. A body may carry `"expires_at"`, an RFC 3339 time with a zone after now,
/// when the override stops counting (400 for a time without a zone or in the past). A refused value writes nothing.
/// With `?dry_run=1` a `PUT` checks everything a write checks (the value against the definition, `If-Match`,
/// `expires_at`) and answers as the write would, without writing: the console asks it before its confirm step.
///
/// Compare-and-set: every response about one key carries the version of its runtime override as its `ETag`
/// (`"0"`: no override), and `PUT`/`DELETE` with `If-Match: "N"` write only while the override is still at
/// version N, answering 412 when someone else changed it first. `GET /v1/flags` and `GET /v1/audit` carry the
/// store's version.
struct AdminRoutes {
    let board: Board
    let maxBodyBytes: Int
    /// Where writes and refused writes are logged; `nil` for a use that only reads (the console's history).
    var logger: Logger?

    func register(on group: RouterGroup<ServerContext>) {
        group.get("flags", use: list)
        group.get("flags/**", use: explain)
        group.put("overrides/**", use: setOverride)
        group.delete("overrides/**", use: removeOverride)
        group.delete("overrides", use: removeAll)
        group.get("audit", use: audit)
        // A method a path does not take: 405 with what it takes, not an empty 404 that reads as "no such key".
        let paths: [(String, [HTTPRequest.Method])] = [
            ("flags", [.get]), ("flags/**", [.get]), ("overrides/**", [.put, .delete]), ("overrides", [.delete]),
            ("audit", [.get]),
        ]
        for (path, allowed) in paths {
            let refuse = ServerError.methodNotAllowed(allow: allowed)
            // HEAD where GET is: the router answers it from the GET route (FlagServer).
            for method: HTTPRequest.Method in [.get, .head, .post, .put, .patch, .delete, .options, .trace]
            where !allowed.contains(method) && !(method == .head && allowed.contains(.get)) {
                group.on(RouterPath(path), method: method, use: refuse)
            }
        }
    }

    /// `GET /v1/flags`.
    @Sendable func list(_ request: Request, context: ServerContext) async throws -> Response {
        let snapshot = board.snapshot
        let flags = snapshot.entries.map { entry in
            let key = entry.definition.key
            let resolution = board.resolve(key)
            return entry.adminJSON(resolution: resolution, expiresAt: board.expiresAt(of: key, serving: resolution))
        }
        let document: Value = [
            "revision": .int(Int(truncatingIfNeeded: snapshot.revision)), "flags": .list(flags),
        ]
        return tagged(Response.json(document.json), version: board.storeVersion)
    }

    /// `GET /v1/flags/{key}`.
    @Sendable func explain(_ request: Request, context: ServerContext) async throws -> Response {
        let key = Self.key(in: context)
        guard let explanation = board.explain(key) else { throw unknownKey(key) }
        let expiresAt = board.expiresAt(of: key, serving: explanation.resolution)
        return tagged(Response.json(explanation.jsonValue(expiresAt: expiresAt).json), key: key)
    }

    /// `PUT /v1/overrides/{key}`.
    @Sendable func setOverride(_ request: Request, context: ServerContext) async throws -> Response {
        let key = Self.key(in: context)
        let bytes = try await request.bodyBytes(limit: maxBodyBytes) {
            .admin(.contentTooLarge, Request.tooLargeMessage(limit: maxBodyBytes))
        }
        let usage = "the body must be a JSON object with \"value\" (typed JSON) or \"text\" (as typed after "
            + "`switchboard set KEY`)"
        let example = "for example {\"value\": 100, \"actor\": \"alice\"}"
        let parsed: Value
        do {
            parsed = try Value(jsonBytes: bytes)
        } catch {
            throw ServerError.admin(.badRequest, "the body is not valid JSON: \(error); nothing was written",
                                    hint: example)
        }
        guard case .object(let body) = parsed else { throw ServerError.admin(.badRequest, usage, hint: example) }
        if body["value"] != nil, body["text"] != nil {
            throw ServerError.admin(.badRequest, "the body has both \"value\" and \"text\"; give one of them",
                                    hint: "\"value\" is typed JSON; \"text\" is parsed as `switchboard set KEY "
                                        + "TEXT` parses it")
        }
        // A misspelt field would be a write without it: `expiresAt` for `expires_at` an override that never ends.
        if let unknown = body.keys.sorted().first(where: { !Self.overrideFields.contains($0) }) {
            throw ServerError.admin(
                .badRequest, "unknown field '\(unknown)' in the body",
                hint: Suggestions.nearest(to: unknown, in: Self.overrideFields).map(Message.didYouMean(one:))
                    ?? "the fields are " + Self.overrideFields.joined(separator: ", "))
        }
        try Self.checkQuery(of: request, allowed: ["dry_run", "actor"])
        let principal = try ConsoleRoutes.principal(of: context)
        try AccessControl.checkWrite(key, by: principal, logger: logger)
        let claimed = try Self.claimedActor(body["actor"]) ?? Self.claimedActor(in: request)
        let attribution = Self.attribution(principal, claimed: claimed)
        let expected = try Self.expectedVersion(in: request)
        let expiresAt = try expiry(in: body)
        let value = try fitted(key, body: body, usage: usage)
        // The expiry the write stores, to the millisecond, as its answer shows it.
        let expiry = expiresAt.map { StoredOverride.time(secondsSinceEpoch: $0.timeIntervalSince1970) }
        if try Self.isDryRun(request) {
            if let expected {
                do {
                    try WriteCondition(key: key, version: expected)
                        .check(against: board.storedOverride(key), at: StoredOverride.currentTime())
                } catch {
                    // As a write's conflict does: read the store again, so that the 412 carries its version.
                    board.refreshRuntime()
                    throw refusal(.store(error), key: key)
                }
            }
            return written(key, value: value, expiresAt: expiry, version: board.storedOverride(key)?.version ?? 0)
        }
        let version: UInt64
        do {
            version = try board.setOverride(key, to: value, as: attribution, expiresAt: expiresAt,
                                            expectedVersion: expected)
        } catch {
            throw refusal(error, key: key)
        }
        logger?.info("\(PersonName.shown(principal.name)) set \(key) (version \(version))")
        return written(key, value: value, expiresAt: expiry, version: version)
    }

    /// The fields a `PUT /v1/overrides/{key}` body may have.
    static let overrideFields = ["value", "text", "actor", "expires_at"]

    /// The body's `"expires_at"` (absent or `null`: never), checked as `switchboard set --until` checks its time.
    private func expiry(in body: [String: Value]) throws -> Date? {
        guard let field = body["expires_at"], field != .null else { return nil }
        // An hour from now, to the second: an example that would itself be accepted.
        let inAnHour = Clock.timestamp(secondsSinceEpoch: (board.clock.now() + 3600).rounded(.down))
            .replacingOccurrences(of: ".000Z", with: "Z")
        let example = "for example {\"value\": true, \"expires_at\": \"\(inAnHour)\"}"
        guard let text = field.stringValue else {
            throw ServerError.admin(.badRequest, "expires_at must be a string: an RFC 3339 time with a zone",
                                    hint: example)
        }
        do throws(ExpiryInput.Problem) {
            return Date(timeIntervalSince1970: try ExpiryInput.moment(of: text, name: "expires_at",
                                                                      now: board.clock.now()))
        } catch {
            throw ServerError.admin(.badRequest, error.message, hint: example)
        }
    }

    /// The body's value checked against the key's definition (type, `values`, `min`/`max`, the ICU `pattern`) as the
    /// write checks it: `"value"` as typed JSON, `"text"` as `switchboard set KEY TEXT` reads it.
    private func fitted(_ key: String, body: [String: Value], usage: String) throws -> Value {
        guard let definition = board.registry[key] else { throw unknownKey(key) }
        let fit: Result<Value, ValueProblem>
        switch (body["value"], body["text"]) {
        case (let value?, nil): fit = definition.fit(value)
        case (nil, .string(let text)?): fit = definition.fit(text: text)
        default: throw ServerError.admin(.badRequest, usage)
        }
        switch fit {
        case .success(let fitting): return fitting
        case .failure(let problem): throw refusal(.invalidValue(key: key, problem))
        }
    }

    /// The answer to a `PUT`: what this write serves (the runtime layer wins over every other, and over a disabled
    /// definition too, with the reason OVERRIDE) and, as its `ETag`, the version it wrote. Made from the write
    /// itself rather than read back, since another writer may have written the key since. With `?dry_run=1`: the
    /// same, with the override's current version (unchanged, since nothing was written), and nothing written, no
    /// audit record, no change published.
    private func written(_ key: String, value: Value, expiresAt: String?, version: UInt64) -> Response {
        let definition = board.registry[key]
        let resolution = Resolution(value: value, variant: definition?.variant(for: value), reason: .override,
                                    layer: .runtime, metadata: definition?.metadata ?? [:])
        return tagged(Response.json(resolution.jsonValue(key: key, expiresAt: expiresAt).json), version: version)
    }

    /// Whether a request asks for a dry run: `dry_run=1` (or `true`); `0` or `false` is a real write.
    ///
    /// - Throws: 400 for any other spelling (`yes`, a bare `dry_run`): a write meant as a try is never made.
    static func isDryRun(_ request: Request) throws -> Bool {
        guard let flag = request.uri.queryParameters["dry_run"] else { return false }
        switch flag {
        case "1", "true": return true
        case "0", "false": return false
        default:
            throw ServerError.admin(.badRequest, "dry_run must be 1 or true (0 or false: a real write), not '\(flag)'; "
                                        + "nothing was written", hint: "PUT /v1/overrides/{key}?dry_run=1")
        }
    }

    /// Refuses a query parameter the write does not take, before anything is written: a misspelt `dry_run` would
    /// otherwise be a real write. A `DELETE` takes no `dry_run`: only a `PUT` can be tried without writing.
    static func checkQuery(of request: Request, allowed: [String]) throws {
        for (name, _) in request.uri.queryParameters where !allowed.contains(String(name)) {
            let name = String(name)
            let meantDryRun = name == "dry_run" || Suggestions.nearest(to: name, in: ["dry_run"]) != nil
            if !allowed.contains("dry_run"), meantDryRun {
                throw ServerError.admin(.badRequest, "a DELETE has no dry run; nothing was removed",
                                        hint: "GET /v1/flags/{key} shows every layer, and what serves without the "
                                            + "runtime override")
            }
            throw ServerError.admin(
                .badRequest, "unknown query parameter '\(name)'; nothing was written",
                hint: Suggestions.nearest(to: name, in: allowed).map(Message.didYouMean(one:))
                    ?? "the parameters are " + allowed.joined(separator: ", "))
        }
    }

    /// `DELETE /v1/overrides/{key}`.
    @Sendable func removeOverride(_ request: Request, context: ServerContext) async throws -> Response {
        let key = Self.key(in: context)
        try Self.checkQuery(of: request, allowed: ["actor"])
        let principal = try ConsoleRoutes.principal(of: context)
        try AccessControl.checkWrite(key, by: principal, logger: logger)
        let expected = try Self.expectedVersion(in: request)
        let attribution = Self.attribution(principal, claimed: try Self.claimedActor(in: request))
        do {
            try board.reset(key, as: attribution, expectedVersion: expected)
        } catch {
            throw refusal(error, key: key)
        }
        logger?.info("\(PersonName.shown(principal.name)) removed the override of \(key)")
        return tagged(Response.json(board.resolve(key).jsonValue(key: key).json), key: key)
    }

    /// `DELETE /v1/overrides`: every runtime override removed in one write, as `switchboard reset --all`, answered
    /// with the store's version, how many went and their keys.
    @Sendable func removeAll(_ request: Request, context: ServerContext) async throws -> Response {
        try Self.checkQuery(of: request, allowed: ["actor"])
        let principal = try ConsoleRoutes.principal(of: context)
        try AccessControl.checkAdmin(principal, doing: "remove every override", logger: logger)
        let attribution = Self.attribution(principal, claimed: try Self.claimedActor(in: request))
        let version: UInt64
        let keys: [String]
        do {
            keys = try board.liveOverrideKeys()
            version = try board.reset(keys: keys, as: attribution)
        } catch {
            throw refusal(error)
        }
        logger?.info("\(PersonName.shown(principal.name)) removed every override (\(keys.count))")
        let document: Value = [
            "version": .int(Int(clamping: version)), "removed": .int(keys.count), "keys": .list(keys.map(Value.string)),
        ]
        return tagged(Response.json(document.json), version: version)
    }

    /// `GET /v1/audit`.
    @Sendable func audit(_ request: Request, context: ServerContext) async throws -> Response {
        var limit = 100
        if let text = request.uri.queryParameters["limit"] {
            // A number past Int's range is as many as there are.
            let digits = !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber }
            let number = Int(text) ?? (digits ? Int.max : nil)
            guard let number, number > 0 else {
                throw ServerError.admin(.badRequest, "limit must be a positive whole number, not '\(text)'")
            }
            limit = number
        }
        // Each record in the audit log's own JSON form, one line of `audit.jsonl`.
        let history: [AuditRecord]
        do throws(StoreError) {
            history = try board.auditLog(limit: limit)
        } catch {
            throw refusal(error)
        }
        let records = history.map(\.json).joined(separator: ",")
        return tagged(Response.json("{\"records\":[" + records + "]}"), version: board.storeVersion)
    }

    /// A response with a version as its entity tag.
    private func tagged(_ response: Response, version: UInt64) -> Response {
        var response = response
        response.headers[.eTag] = "\"\(version)\""
        return response
    }

    /// A response with the version of a key's runtime override as its entity tag.
    private func tagged(_ response: Response, key: String) -> Response {
        tagged(response, version: board.storedOverride(key)?.version ?? 0)
    }

    /// The version `If-Match` asks for: `"N"` (or `W/"N"`); `nil` without the header.
    static func expectedVersion(in request: Request) throws -> UInt64? {
        guard let header = request.headers[.ifMatch] else { return nil }
        var tag = header.trimmingCharacters(in: .whitespaces)
        if tag.hasPrefix("W/") { tag.removeFirst(2) }
        guard tag.count >= 2, tag.first == "\"", tag.last == "\"", let version = UInt64(tag.dropFirst().dropLast())
        else {
            throw ServerError.admin(.badRequest, "If-Match must be the ETag of an earlier response, such as \"3\", "
                                        + "not \(header)", hint: "GET /v1/flags/{key} answers with the current ETag")
        }
        return version
    }

    private static func key(in context: ServerContext) -> String {
        PathKey.decode(context.parameters[Parameters.recursiveCaptureKey] ?? "")
    }

    /// The name a request claims for the audit: the `actor` query parameter.
    private static func claimedActor(in request: Request) throws -> String? {
        try request.uri.queryParameters["actor"].flatMap { try claimedActor(.string(String($0))) }
    }

    /// The longest name a request may claim: the audit log shows it in a column of every table.
    static let claimedActorLimit = 200

    /// A body's `"actor"` (absent or `null`: none), or a 400 for one that is not a string or is longer than
    /// ``claimedActorLimit`` characters: a write never drops or cuts the name its sender claimed.
    private static func claimedActor(_ field: Value?) throws -> String? {
        guard let field, field != .null else { return nil }
        guard let name = field.stringValue else {
            throw ServerError.admin(.badRequest, "actor must be a string, the name you claim for the audit log, not "
                                        + "\(field.kindDescription); nothing was written",
                                    hint: "for example {\"value\": 100, \"actor\": \"alice\"}")
        }
        // Counted in code points: a character may carry any number of combining marks.
        guard name.unicodeScalars.count <= claimedActorLimit else {
            throw ServerError.admin(.badRequest, "actor is at most \(claimedActorLimit) characters, not "
                                        + "\(name.unicodeScalars.count); nothing was written")
        }
        return name
    }

    /// What the audit records for a write by `principal`: the verified name, with the claimed one beside it.
    static func attribution(_ principal: Principal, claimed: String?) -> Attribution {
        Attribution(actor: principal.name, claimedActor: claimed, verified: principal.isVerified)
    }

    private func unknownKey(_ key: String) -> ServerError {
        unknownKey(key, suggestions: board.registry.suggestions(for: key))
    }

    private func unknownKey(_ key: String, suggestions: [String]) -> ServerError {
        let message = Message.unknownKey(key, suggestions: suggestions)
        return .admin(.notFound, message.text, hint: message.hint, suggestions: suggestions)
    }

    private func refused(_ message: Message) -> ServerError {
        .admin(.badRequest, message.text, hint: message.hint)
    }

    /// A refused write of `key`; a 412 carries the override's current version as its `ETag` (the store's, read
    /// again by the refused write), so that a client can retry with it.
    private func refusal(_ error: Board.SetError, key: String) -> ServerError {
        var refusal = refusal(error)
        if refusal.status == .preconditionFailed {
            refusal.headers[.eTag] = "\"\(board.storedOverride(key)?.version ?? 0)\""
        }
        return refusal
    }

    private func refusal(_ error: Board.SetError) -> ServerError {
        switch error {
        case .unknownKey(let key, let suggestions):
            unknownKey(key, suggestions: suggestions)
        case .invalidValue(let key, let problem):
            refused(Message.refusedValue(key: key, problem: problem, type: board.registry[key]?.type))
        case .store(let problem):
            refusal(problem)
        }
    }

    /// The answer to a store that refused: 412 for a conflict, 503 while it cannot be reached, 500 when corrupt.
    private func refusal(_ problem: StoreError) -> ServerError {
        switch problem.kind {
        case .conflict: .admin(.preconditionFailed, problem.message, hint: problem.hint)
        case .unavailable: .admin(.serviceUnavailable, problem.message, hint: problem.hint)
        case .corrupt: .admin(.internalServerError, problem.message, hint: problem.hint)
        }
    }
}
