import Hummingbird

/// The request context of every route: Hummingbird's core storage and nothing else, so creating one per request
/// costs no more than the framework's own.
struct ServerContext: RequestContext {
    var coreContext: CoreRequestContextStorage

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
    }
}
