import HTTPTypes
import Hummingbird
import Prometheus
import Switchboard

/// The operational routes: `GET /healthz`, `GET /metrics`, and `GET /ping`, a constant answer that measures what
/// the HTTP stack alone costs (the benchmark's baseline).
///
/// None needs a token: probes and scrapers run without one, and none reveals a flag's value. On a server whose reads
/// need a token, `/healthz` without a valid one answers only the status, revision, count and version: its error
/// texts quote definition files and name the store's and the access file's paths.
struct HealthRoutes {
    let board: Board
    /// Who may use the server: `/healthz` says when the access file on disk is invalid (the last good one stays).
    let access: AccessControl
    /// What `/metrics` renders; `nil`: the figures go elsewhere, and `/metrics` says so with a 404.
    let prometheus: PrometheusCollectorRegistry?

    func register(on router: Router<ServerContext>) {
        router.get("healthz") { request, context in
            var detailed = access.ofrepIsOpen
            if !detailed { detailed = await access.acceptsCredential(of: request, context: context) }
            return Response.json(Self.health(of: board, access: access, detailed: detailed).json)
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
    /// Without `detailed`, the status, revision, count and version alone.
    static func health(of board: Board, access: AccessControl, detailed: Bool = true) -> Value {
        // One reading of the status, so the fields agree with each other.
        let status = board.health
        let accessHealth = access.health
        let errors = status.reloadErrors
        var object: [String: Value] = [
            "status": status.isDegraded || accessHealth?.problem != nil || accessHealth?.identityProblem != nil
                ? "degraded" : "ok",
            "revision": .int(Int(truncatingIfNeeded: board.revision)),
            "definitions": .int(board.registry.count),
            "version": .string(SwitchboardVersion.current),
        ]
        guard detailed else { return .object(object) }
        object["lastReloadError"] = errors.first.map { .string($0.description) } ?? .null
        if !errors.isEmpty { object["reloadErrors"] = .list(errors.map { .string($0.description) }) }
        if let storeProblem = status.storeProblem { object["storeError"] = .string(storeProblem.description) }
        if let accessHealth {
            var file: [String: Value] = ["path": .string(accessHealth.path), "people": .int(accessHealth.people)]
            if let problem = accessHealth.problem { file["error"] = .string(problem) }
            if let problem = accessHealth.identityProblem { file["identityProviderError"] = .string(problem) }
            object["accessFile"] = .object(file)
        }
        return .object(object)
    }
}
