import HTTPTypes
import Hummingbird
import Switchboard

/// The operational routes: `GET /healthz`, `GET /metrics`, and `GET /ping`, a constant answer that measures what
/// the HTTP stack alone costs (the benchmark's baseline).
///
/// None needs a token: probes and scrapers run without one, and none reveals a flag's value.
struct HealthRoutes {
    let board: Board
    let metrics: ServerMetrics
    let feed: ChangeFeed

    func register(on router: Router<ServerContext>) {
        router.get("healthz") { _, _ in
            Response.json(Self.health(of: board).json)
        }
        router.get("metrics") { _, _ in
            Response.text(metrics.render(board: board, degraded: Self.isDegraded(board),
                                         eventStreams: feed.subscriberCount),
                          contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
        router.get("ping") { _, _ in
            Response.text("pong\n")
        }
    }

    /// Whether the server serves older definitions or overrides than the files hold.
    static func isDegraded(_ board: Board) -> Bool {
        !board.lastReloadErrors.isEmpty || board.storeProblem != nil
    }

    /// The health document. `degraded` still answers 200: the server is serving, from the last good definitions,
    /// and a probe that restarted it would only lose those.
    static func health(of board: Board) -> Value {
        let errors = board.lastReloadErrors
        let storeProblem = board.storeProblem
        var object: [String: Value] = [
            "status": errors.isEmpty && storeProblem == nil ? "ok" : "degraded",
            "revision": .int(Int(truncatingIfNeeded: board.revision)),
            "definitions": .int(board.registry.count),
            "lastReloadError": errors.first.map { .string($0.description) } ?? .null,
        ]
        if !errors.isEmpty { object["reloadErrors"] = .list(errors.map { .string($0.description) }) }
        if let storeProblem { object["storeError"] = .string(storeProblem.description) }
        return .object(object)
    }
}
