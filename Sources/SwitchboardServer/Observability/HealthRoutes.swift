import HTTPTypes
import Hummingbird
import Prometheus
import Switchboard

/// The operational routes: `GET /healthz`, `GET /metrics`, and `GET /ping`, a constant answer that measures what
/// the HTTP stack alone costs (the benchmark's baseline).
///
/// None needs a token: probes and scrapers run without one, and none reveals a flag's value.
struct HealthRoutes {
    let board: Board
    /// Who may use the server: `/healthz` says when the access file on disk is invalid (the last good one stays).
    let access: AccessControl
    /// What `/metrics` renders; `nil`: the figures go elsewhere, and `/metrics` says so with a 404.
    let prometheus: PrometheusCollectorRegistry?

    func register(on router: Router<ServerContext>) {
        router.get("healthz") { _, _ in
            Response.json(Self.health(of: board, access: access).json)
        }
        router.get("metrics") { _, _ in
            guard let prometheus else {
                return Response.text(
                    "this server's metrics go to the process's MetricsSystem, not to a Prometheus registry it "
                        + "serves; set ServerConfiguration.prometheus to serve them here\n",
                    status: .notFound)
            }
            return Response.text(prometheus.emitToString(), contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
        router.get("ping") { _, _ in
            Response.text("pong\n")
        }
    }

    /// The health document. `degraded` still answers 200: the server is serving, from the last good definitions,
    /// and a probe that restarted it would only lose those.
    static func health(of board: Board, access: AccessControl) -> Value {
        // One reading of the status, so the fields agree with each other.
        let status = board.health
        let errors = status.reloadErrors
        var object: [String: Value] = [
            "status": status.isDegraded ? "degraded" : "ok",
            "revision": .int(Int(truncatingIfNeeded: board.revision)),
            "definitions": .int(board.registry.count),
            "lastReloadError": errors.first.map { .string($0.description) } ?? .null,
            "version": .string(SwitchboardVersion.current),
        ]
        if !errors.isEmpty { object["reloadErrors"] = .list(errors.map { .string($0.description) }) }
        if let storeProblem = status.storeProblem { object["storeError"] = .string(storeProblem.description) }
        if let accessHealth = access.health {
            var file: [String: Value] = ["path": .string(accessHealth.path), "people": .int(accessHealth.people)]
            if let problem = accessHealth.problem {
                file["error"] = .string(problem)
                object["status"] = "degraded"
            }
            object["accessFile"] = .object(file)
        }
        return .object(object)
    }
}
