import HTTPTypes
import Hummingbird

/// Counts every response by status, refusals included: an error a route throws is turned into its response here,
/// where it can still be counted, instead of later by the router.
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let metrics: ServerMetrics

    func handle(
        _ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response
    ) async throws -> Response {
        let response: Response
        do {
            response = try await Response.answer(to: request, context: context, next: next)
        } catch {
            metrics.recordRequest(status: 500)
            throw error
        }
        metrics.recordRequest(status: response.status.code)
        return response
    }
}
