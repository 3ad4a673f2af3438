import HTTPTypes
import Hummingbird
import Switchboard

/// `GET /v1/usage`, in the admin API (behind the admin token, like the other `/v1` routes): what clients asked
/// for since the server started, as ``UsageTracker`` counted it.
///
/// ```json
/// {"since": "2026-11-26T09:00:00.000Z",
///  "keys": [{"key": "checkout.new_flow", "last_evaluated": "2026-11-26T10:12:03.512Z", "evaluations": 412}],
///  "unknown": [{"key": "checkout.new_flwo", "lookups": 3}]}
/// ```
///
/// `keys` lists every definition in service, in declaration order (`last_evaluated` is `null` and `evaluations`
/// 0 for one no client asked for); `unknown` the keys clients asked for that no file defines, most looked-up
/// first, at most `UsageReport.unknownKeyLimit` of them.
struct UsageRoutes {
    let board: Board
    let usage: UsageTracker

    func register(on group: RouterGroup<ServerContext>) {
        group.get("usage", use: report)
        let refuse = ServerError.methodNotAllowed(allow: [.get])
        for method: HTTPRequest.Method in [.post, .put, .patch, .delete, .options, .trace] {
            group.on("usage", method: method, use: refuse)
        }
    }

    /// `GET /v1/usage`.
    @Sendable func report(_ request: Request, context: ServerContext) async throws -> Response {
        Response.json(usage.report(on: board.snapshot).json)
    }
}
