import HTTPTypes
import Hummingbird
import Metrics
import Switchboard
import Tracing

/// OFREP: single and bulk evaluation, and the event stream the bulk response advertises.
///
/// | route | answers |
/// |---|---|
/// | `POST /ofrep/v1/evaluate/flags/{key}` | 200 evaluation, 404 `FLAG_NOT_FOUND`, 400 bad body or failed evaluation |
/// | `POST /ofrep/v1/evaluate/flags` | 200 `{"flags": […], "eventStreams": […]}`, `ETag`; 304 on `If-None-Match` |
/// | `GET /ofrep/v1/events` | `text/event-stream` of `refetchEvaluation` events (ADR 0008) |
/// | another method on these paths | 405 with `Allow` and an OFREP error body |
///
/// Every evaluation is the library's own — `Board/resolve(_:context:)`, or in bulk the same resolution on one
/// snapshot — with all four layers and targeting.
struct OFREPRoutes {
    /// The bulk response's fixed tail: the event stream at `/ofrep/v1/events`, named as an `endpoint` relative to
    /// the origin of the client's OFREP base URL, which stays right behind a proxy that changes the host.
    static let eventStreams: StaticString = """
        "eventStreams":[{"type":"sse","endpoint":{"requestUri":"/ofrep/v1/events"},"inactivityDelaySec":120}]
        """

    let board: Board
    let metrics: ServerMetrics
    let feed: ChangeFeed
    let maxBodyBytes: Int
    /// Whether `feature_flag.evaluation` events carry the value.
    let traceValues: Bool
    /// Whether the current revision's rules read the clock, which rules out revision-based tags.
    let clockDependence = ClockDependence()
    let upcomingChanges = UpcomingChanges()

    func register(on group: RouterGroup<ServerContext>) {
        group.post("evaluate/flags", use: evaluateAll)
        // A recursive capture, so a key with a `/` that a client did not escape still reaches the handler.
        group.post("evaluate/flags/**", use: evaluate)
        group.get("events", use: events)
        for method: HTTPRequest.Method in [.get, .head, .put, .patch, .delete] {
            group.on("evaluate/flags", method: method, use: Self.methodNotAllowed(allow: .post))
            group.on("evaluate/flags/**", method: method, use: Self.methodNotAllowed(allow: .post))
        }
        // HEAD too: a stream has no headers to show without starting.
        for method: HTTPRequest.Method in [.head, .post, .put, .patch, .delete] {
            group.on("events", method: method, use: Self.methodNotAllowed(allow: .get))
        }
        // What a path takes; from an allowed origin (`--cors-origin`), CORSMiddleware answers a browser's
        // preflight before it gets here.
        group.on("evaluate/flags", method: .options, use: Self.options(allow: .post))
        group.on("evaluate/flags/**", method: .options, use: Self.options(allow: .post))
        group.on("events", method: .options, use: Self.options(allow: .get))
    }

    /// The answer to `OPTIONS`: 204 with `Allow`.
    static func options(allow: HTTPRequest.Method) -> @Sendable (Request, ServerContext) async throws -> Response {
        { _, _ in Response(status: .noContent, headers: [.allow: "\(allow.rawValue), OPTIONS"]) }
    }

    /// The answer to a method a path does not take: 405 with `Allow` naming the one it does, and an OFREP error body.
    static func methodNotAllowed(
        allow: HTTPRequest.Method
    ) -> @Sendable (Request, ServerContext) async throws -> Response {
        ServerError.methodNotAllowed(allow: [allow]) { .ofrep(.methodNotAllowed, code: "GENERAL", details: $0) }
    }

    /// `POST /ofrep/v1/evaluate/flags/{key}`.
    @Sendable func evaluate(_ request: Request, context: ServerContext) async throws -> Response {
        let start = ContinuousClock.now
        defer { metrics.singleLatency.record(duration: start.duration(to: .now)) }
        let key = PathKey.decode(context.parameters[Parameters.recursiveCaptureKey] ?? "")
        let body = try await request.bodyBytes(limit: maxBodyBytes) {
            .ofrep(.contentTooLarge, code: "GENERAL", details: Request.tooLargeMessage(limit: maxBodyBytes), key: key)
        }
        let evaluationContext = try OFREPRequest.context(from: body, key: key)
        let snapshot = board.snapshot
        let resolution = snapshot.resolve(key, context: evaluationContext)
        var tally = ServerMetrics.Tally()
        tally.add(resolution, position: snapshot.registry.position(of: key))
        metrics.record(tally, on: snapshot)
        if resolution.errorCode == .flagNotFound { metrics.usage.lookedUp(unknown: key) }
        if let span = EvaluationEvent.currentSpan() {
            EvaluationEvent.record(key: key, resolution: resolution, includeValue: traceValues, on: span)
        }
        var out = JSONWriter(capacity: 192)
        OFREPEncoding.writeEvaluation(key: key, resolution, to: &out)
        let status: HTTPResponse.Status = if resolution.errorCode == .flagNotFound {
            .notFound
        } else if OFREPEncoding.isFailure(resolution) {
            .badRequest
        } else {
            .ok
        }
        return Response.json(out.buffer, status: status)
    }

    /// `POST /ofrep/v1/evaluate/flags`.
    @Sendable func evaluateAll(_ request: Request, context: ServerContext) async throws -> Response {
        let start = ContinuousClock.now
        defer { metrics.bulkLatency.record(duration: start.duration(to: .now)) }
        let body = try await request.bodyBytes(limit: maxBodyBytes) {
            .ofrep(.contentTooLarge, code: "GENERAL", details: Request.tooLargeMessage(limit: maxBodyBytes))
        }
        // One snapshot for the whole answer (`Board/resolve(_:context:)` resolves through it too): every flag
        // comes from the same revision, even when a reload lands midway, and the tag names that revision.
        let snapshot = board.snapshot
        let ifNoneMatch = request.headers[values: .ifNoneMatch]
        let fastTag = clockDependence.readsClock(snapshot)
            ? nil : BulkEntityTag.tag(revision: snapshot.revision, body: body)
        if let fastTag, ifNoneMatch.contains(where: { EntityTag.tags(in: $0).contains(fastTag.opaque[...]) }) {
            // Same revision, same request body: the answer would be byte for byte the one the client has. (`*`
            // takes the full path, so a malformed body still gets its 400.)
            return Response(status: .notModified, headers: [.eTag: fastTag.description, .cacheControl: "no-cache"])
        }
        let evaluationContext = try OFREPRequest.context(from: body, key: nil)
        var out = JSONWriter(capacity: 112 * snapshot.entries.count + 192)
        out.raw("{\"flags\":[")
        var tally = ServerMetrics.Tally()
        let span = EvaluationEvent.currentSpan()
        // The flags that change at the next step or expiry, walked with a cursor: no lookup per flag.
        let upcoming = upcomingChanges.upcoming(after: snapshot, board: board)
        var nextChanging = 0
        for (index, entry) in snapshot.entries.enumerated() {
            let key = entry.definition.key
            var resolution = snapshot.resolve(key, context: evaluationContext)
            if let upcoming, nextChanging < upcoming.positions.count, upcoming.positions[nextChanging] == index {
                nextChanging += 1
                resolution = UpcomingChanges.announcing(resolution, key: key, context: evaluationContext,
                                                        upcoming: upcoming)
            }
            tally.add(resolution, position: index)
            if let span { EvaluationEvent.record(key: key, resolution: resolution, includeValue: traceValues, on: span) }
            if index > 0 { out.raw(",") }
            OFREPEncoding.writeEvaluation(key: key, resolution, to: &out)
        }
        out.raw("],")
        out.raw(Self.eventStreams)
        out.raw("}")
        metrics.record(tally, on: snapshot)
        let tag = fastTag ?? EntityTag(hashing: out.bytes)
        // `no-cache`: a cache keeps the answer but asks again (a 304 when nothing changed), so no copy outlives a
        // schedule step or an expiry, each of which is a new revision and so a new tag.
        if tag.isMatched(byIfNoneMatch: ifNoneMatch) {
            return Response(status: .notModified, headers: [.eTag: tag.description, .cacheControl: "no-cache"])
        }
        return Response.json(out.buffer, headers: [.eTag: tag.description, .cacheControl: "no-cache"])
    }

    /// `GET /ofrep/v1/events`: a `refetchEvaluation` event for every new revision, a comment line as a heartbeat.
    ///
    /// A client reconnecting with a `Last-Event-ID` older than the current revision gets the event it missed at
    /// once.
    @Sendable func events(_ request: Request, context: ServerContext) async throws -> Response {
        let lastEventID = request.headers[Self.lastEventID].flatMap(UInt64.init)
        let stream = feed.stream(from: feed.cursor(catchingUpFrom: lastEventID))
        let headers: HTTPFields = [
            .contentType: "text/event-stream",
            .cacheControl: "no-cache",
            // Asks nginx-style proxies not to buffer: an event held back defeats the stream.
            Self.accelBuffering: "no",
        ]
        return .eventStream(headers: headers, opening: Self.streamOpening, stream: stream, context: context)
    }

    /// The first bytes of every event stream: a comment, and the reconnection delay.
    static let streamOpening = ByteBuffer(string: ": switchboard OFREP event stream\nretry: 1000\n\n")

    static let lastEventID = HTTPField.Name("Last-Event-ID")!
    static let accelBuffering = HTTPField.Name("X-Accel-Buffering")!

    /// A revision's event as SSE text. The envelope's event is always `message`; the type is in the data (ADR 0008).
    static func frame(revision: UInt64, lastModified: Int) -> String {
        "id: \(revision)\nevent: message\n"
            + "data: {\"type\":\"refetchEvaluation\",\"lastModified\":\(lastModified)}\n\n"
    }
}
