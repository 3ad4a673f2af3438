import HTTPTypes
import Hummingbird
import Switchboard

/// The web console: the page at `/`, its script and styles, and the read routes the page needs beyond the admin
/// API. Writes go through the admin API (`PUT`/`DELETE /v1/overrides/{key}` with `If-Match`), never through here.
///
/// | route | answers |
/// |---|---|
/// | `GET /` | the page |
/// | `GET /console/app.js`, `/console/app.css`, `/console/icon.svg` | its script, styles, icon (`ETag`, revalidated) |
/// | `GET /console/app.<hash>.js`, … | the same by content-hashed name, as the page links them (cached a year) |
/// | `GET /console/oidc/…` | sign-in through the identity provider (``ConsoleSignInRoutes``) |
/// | `GET /console/api/session` | the token's access (`admin`, `read`, `open`), the environment, store and health |
/// | `GET /console/api/flags` | every definition as a list row, with its version, origin and marks |
/// | `POST /console/api/flags` | the same, resolved for `{"context": {…}}` (OFREP's request body) |
/// | `GET`/`POST /console/api/flags/{key}` | the row, its explanation for the context, override, last change, and
///   the targeting as ``TargetingDescription`` describes it |
/// | `GET /console/api/audit?limit=N` | as `GET /v1/audit` |
/// | `GET /console/api/events` | an event stream: `change` (the changed rows) and `status` (health) |
///
/// The assets are compiled into the binary (``ConsoleAssets``), so a `switchboard` copied alone serves the whole
/// console.
/// Every response carries ``ConsoleHeaders``. The data routes need a credential ``AccessControl`` accepts
/// (none when the server has no token at all); writes go through the admin API, which checks the role.
struct ConsoleRoutes {
    let board: Board
    let feed: ChangeFeed
    let access: AccessControl
    let maxBodyBytes: Int
    /// What the server saw of each key (`/v1/usage`): the flag page shows the last evaluation.
    let usage: UsageTracker

    /// How many audit records an explanation searches for the key's last change.
    static let lastChangeWindow = 1000

    func register(on router: Router<ServerContext>) {
        router.group().add(middleware: ConsoleHeadersMiddleware()).get("/") { request, _ in
            Self.asset(named: ConsoleAssets.pageName, request: request)
        }
        let console = router.group("console").add(middleware: ConsoleHeadersMiddleware())
        console.get(":file") { request, context in
            Self.asset(named: context.parameters.get("file") ?? "", request: request)
        }
        ConsoleSignInRoutes(access: access).register(on: console)
        let api = console.group("api")
            .add(middleware: AccessMiddleware(access: access, scope: .console))
        api.get("session", use: session)
        api.get("flags", use: list)
        api.post("flags", use: list)
        api.get("flags/**", use: explain)
        api.post("flags/**", use: explain)
        api.get("audit", use: AdminRoutes(board: board, maxBodyBytes: maxBodyBytes).audit)
        api.get("events", use: events)
        // Not HEAD, which the router would answer from the GET route: a stream has no headers to show without
        // starting.
        api.head("events", use: ServerError.methodNotAllowed(allow: [.get]))
    }

    /// How long a browser keeps a file fetched by its hashed name: a year, since a changed file has another name.
    static let immutableCaching = "public, max-age=31536000, immutable"

    /// A file of ``ConsoleAssets`` by its plain or hashed name, with its `ETag`; 304 when the browser has it.
    private static func asset(named name: String, request: Request) -> Response {
        guard let (asset, hashed) = ConsoleAssets.byName[name] else {
            return Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: "no such file\n")))
        }
        let tag = "\"\(asset.hash)\""
        // Plain names (and the page) are revalidated, so a new binary's page never runs with an old script; hashed
        // names change with the content, so they are kept.
        var headers: HTTPFields = [.eTag: tag, .cacheControl: hashed ? immutableCaching : "no-cache"]
        if let ifNoneMatch = request.headers[.ifNoneMatch],
           ifNoneMatch.split(separator: ",").contains(where: { $0.filter { $0 != " " } == tag })
        {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = asset.contentType
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: asset.bytes))
    }

    /// `GET /console/api/session`.
    @Sendable func session(_ request: Request, context: ServerContext) async throws -> Response {
        let principal = try Self.principal(of: context)
        let store = board.store
        let writersConfigured = access.adminToken != nil || access.path != nil
        let document: Value = [
            "user": principal.consoleJSON,
            "canWrite": .bool(principal.canWriteInConsole),
            "readOnlyReason": principal.consoleReadOnlyReason(writersConfigured: writersConfigured)
                .map(Value.string) ?? .null,
            "environment": board.inputs.environmentName.map(Value.string) ?? .null,
            "store": ["kind": .string(store.kind), "location": .string(store.location)],
            "directory": .string(board.directory),
            "health": HealthRoutes.health(of: board, access: access),
            "signIn": ConsoleSignInRoutes.signInDocument(access) ?? .null,
        ]
        return Response.json(document.json)
    }

    /// `GET` or `POST /console/api/flags`: every row, for the empty context or the body's.
    @Sendable func list(_ request: Request, context: ServerContext) async throws -> Response {
        let evaluationContext = try await Self.evaluationContext(of: request, limit: maxBodyBytes)
        let snapshot = board.snapshot
        let today = Day.today()
        // Written as bytes into one buffer (10,000 rows are about 4 MB): appending each row's text to a `String`
        // took most of the time before the page could draw its first rows.
        var out = JSONWriter(capacity: 448 * snapshot.entries.count + 512)
        out.raw("{\"revision\":")
        out.value(.int(Int(clamping: snapshot.revision)))
        out.raw(",\"health\":")
        out.value(HealthRoutes.health(of: board, access: access))
        out.raw(",\"flags\":[")
        let principal = try Self.principal(of: context)
        for (position, entry) in snapshot.entries.enumerated() {
            if position > 0 { out.raw(",") }
            out.value(Self.row(entry, resolution: snapshot.evaluate(position, context: evaluationContext).resolution,
                               today: today, board: board, principal: principal))
        }
        out.raw("]}")
        return Response.json(out.buffer)
    }

    /// `GET` or `POST /console/api/flags/{key}`: the row and the explanation, for the empty context or the body's.
    @Sendable func explain(_ request: Request, context: ServerContext) async throws -> Response {
        let key = PathKey.decode(context.parameters[Parameters.recursiveCaptureKey] ?? "")
        let evaluationContext = try await Self.evaluationContext(of: request, limit: maxBodyBytes)
        let snapshot = board.snapshot
        guard let position = snapshot.registry.position(of: key),
              let explanation = board.explain(key, context: evaluationContext)
        else {
            let suggestions = snapshot.registry.suggestions(for: key)
            let message = Message.unknownKey(key, suggestions: suggestions)
            throw ServerError.admin(.notFound, message.text, hint: message.hint, suggestions: suggestions)
        }
        let entry = snapshot.entries[position]
        var document: [String: Value] = [
            "flag": Self.row(entry, resolution: snapshot.evaluate(position, context: evaluationContext).resolution,
                             today: Day.today(), board: board, principal: try Self.principal(of: context)),
            "explanation": explanation.jsonValue,
        ]
        // Only for the override's `verified` mark: a log that cannot be read leaves the mark out (the page's health
        // names the store's problem), not the page.
        let last = (try? board.auditLog(limit: Self.lastChangeWindow))?.last(where: { $0.key == key })
        if let stored = board.storedOverride(key) {
            var override: [String: Value] = [
                "value": stored.value, "actor": .string(stored.actor), "time": .string(stored.time),
                "version": .int(Int(clamping: stored.version)),
            ]
            // Whether the server checked who set it, from the write's audit record: the page marks a name nobody
            // checked wherever it shows it, as the history does.
            if let last, last.event == .change, last.version == stored.version {
                override["verified"] = .bool(last.verified)
            }
            document["override"] = .object(override)
        }
        // The targeting as the core describes it (rules, segments, rollouts, prerequisites, each with file:line):
        // the flag page draws it and decides nothing.
        if let targeting = TargetingDescription(entry.definition) { document["targeting"] = targeting.jsonValue }
        if let usage = usage.usage(of: key, on: snapshot) {
            document["usage"] = [
                "last_evaluated": usage.lastEvaluated.map(Value.string) ?? .null,
                "evaluations": .int(usage.evaluations), "since": .string(self.usage.sinceText),
            ]
        }
        if let last {
            document["lastChange"] = (try? Value(json: last.json)) ?? .null
        }
        return Response.json(Value.object(document).json)
    }

    /// `GET /console/api/events`: what changed, as rows, and the board's health when it changes.
    ///
    /// Events: `change` with `{"revision": N, "flags": [rows], "removed": [keys]}` — or `{"revision": N,
    /// "refetch": true}` when too much changed to list — and `status` with the health document (`/healthz`'s). The
    /// rows are read from the snapshot the change published: each event shows that change's values. The feed
    /// encodes each event once for every console; a console that reads so slowly that it falls more than
    /// ``ChangeFeed/consoleBacklog`` changes behind gets the refetch event instead of the changes it missed.
    @Sendable func events(_ request: Request, context: ServerContext) async throws -> Response {
        // The stream opens before the current status is read: the feed announces status events only while a
        // console stream is open, so one that comes after this reading reaches the stream.
        let stream = feed.stream(from: feed.cursor(), detailed: true)
        var opening = ByteBuffer(string: ": switchboard console events\nretry: 1000\n\n")
        opening.writeImmutableBuffer(Self.statusFrame(board: board, access: access))
        let headers: HTTPFields = [
            .contentType: "text/event-stream", .cacheControl: "no-store", OFREPRoutes.accelBuffering: "no",
        ]
        return .eventStream(headers: headers, opening: opening, stream: stream, context: context)
    }

    /// One server-sent event. Compact JSON has no line breaks, so the data is one line.
    static func frame(_ name: String, _ data: Value) -> String {
        "event: \(name)\ndata: \(data.json)\n\n"
    }

    /// The `status` event with the board's current health document (`/healthz`'s): a console's first event, and
    /// the one the feed announces when the board's status changes.
    static func statusFrame(board: Board, access: AccessControl) -> ByteBuffer {
        ByteBuffer(string: frame("status", HealthRoutes.health(of: board, access: access)))
    }

    /// A change event's data: the rows of `keys` as `snapshot` resolves them for the empty context, and the keys
    /// it no longer defines.
    static func changeDocument(_ revision: UInt64, keys: [String], snapshot: Snapshot, board: Board) -> Value {
        let today = Day.today()
        var rows: [Value] = []
        var removed: [Value] = []
        for key in keys {
            guard let position = snapshot.registry.position(of: key) else {
                removed.append(.string(key))
                continue
            }
            rows.append(row(snapshot.entries[position], resolution: snapshot.evaluate(position, context: .empty)
                .resolution, today: today, board: board))
        }
        return ["revision": .int(Int(clamping: revision)), "flags": .list(rows), "removed": .list(removed)]
    }

    /// A change event's data when too much changed to list, or the reader missed changes: read everything again.
    static func refetchDocument(_ revision: UInt64) -> Value {
        ["revision": .int(Int(clamping: revision)), "refetch": true]
    }

    /// A row of the list. With a principal whose role writes only some namespaces, a row outside them says
    /// `"readOnly": true`, so the page offers no editor there (change events carry no principal: the page keeps
    /// the mark a key's row had).
    private static func row(_ entry: Snapshot.KeyState, resolution: Resolution, today: Day, board: Board,
                            principal: Principal? = nil) -> Value
    {
        // The admin API's ETag rule: the version of the key's stored override, 0 for none.
        let key = entry.definition.key
        let version = board.storedOverride(key)?.version ?? 0
        var row = entry.consoleJSON(resolution: resolution, version: version, today: today,
                                    expiresAt: board.expiresAt(of: key, serving: resolution))
        if let principal, principal.grant.role == .write, principal.grant.namespaces != nil,
           !principal.grant.mayWrite(key), case .object(var fields) = row
        {
            fields["readOnly"] = true
            row = .object(fields)
        }
        return row
    }

    /// The principal ``AccessMiddleware`` found.
    static func principal(of context: ServerContext) throws(ServerError) -> Principal {
        guard let principal = context.principal else {
            throw .admin(.internalServerError, "no access check ran before this route")
        }
        return principal
    }

    /// The context of a `POST` body, in OFREP's request shape; the empty context for a `GET`.
    private static func evaluationContext(of request: Request, limit: Int) async throws -> EvaluationContext {
        guard request.method == .post else { return .empty }
        let body = try await request.bodyBytes(limit: limit) {
            .admin(.contentTooLarge, Request.tooLargeMessage(limit: limit))
        }
        do {
            return try OFREPRequest.context(from: body, key: nil)
        } catch {
            // OFREP's rule and its words, in the console's error shape.
            throw ServerError.admin(.badRequest, error.body.objectValue?["errorDetails"]?.stringValue ?? "bad context",
                                    hint: "write the context as a JSON object, such as {\"plan\": \"pro\"}")
        }
    }
}
