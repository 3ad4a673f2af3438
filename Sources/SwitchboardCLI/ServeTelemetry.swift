import Foundation
import Logging
import Metrics
import Prometheus
import ServiceLifecycle
import SwitchboardServer
import Tracing
#if OTLP
import OTel
#endif

/// What `switchboard serve` bootstraps for the process: swift-metrics into a Prometheus registry served at
/// `/metrics`, and — when an OTLP endpoint is set and the build has the `OTLP` trait — traces and metrics
/// exported over OTLP/HTTP by swift-otel as well.
struct ServeTelemetry {
    /// The registry `/metrics` renders.
    let registry: PrometheusCollectorRegistry
    /// The exporters, to run beside the server: they flush what is left when it stops.
    let services: [any Service]

    /// Whether this build can export over OTLP.
    static var canExportOTLP: Bool {
        #if OTLP
        true
        #else
        false
        #endif
    }

    /// Bootstraps the process's metrics and tracing.
    ///
    /// - Parameter otlpEndpoint: the OTLP/HTTP base URL (`--otlp-endpoint`); `nil` reads
    ///   `OTEL_EXPORTER_OTLP_ENDPOINT`. The other `OTEL_*` variables (service name, export interval, protocol)
    ///   apply as swift-otel reads them.
    /// - Throws: ``Failure`` when an endpoint is set but this build cannot export, or swift-otel refuses the
    ///   configuration.
    static func bootstrap(otlpEndpoint: String?, logger: Logger) throws(Failure) -> ServeTelemetry {
        let registry = PrometheusCollectorRegistry()
        let prometheus = FlagServer.prometheusFactory(registry: registry)
        if let otlpEndpoint { setenv("OTEL_EXPORTER_OTLP_ENDPOINT", otlpEndpoint, 1) }
        let endpoint = ProcessInfo.processInfo.environment["OTEL_EXPORTER_OTLP_ENDPOINT"] ?? ""
        guard !endpoint.isEmpty else {
            MetricsSystem.bootstrap(prometheus)
            return ServeTelemetry(registry: registry, services: [])
        }
        #if OTLP
        do {
            var configuration = OTel.Configuration.default
            configuration.serviceName = "switchboard"
            configuration.logs.enabled = false
            configuration.diagnosticLogger = .custom(logger)
            let metrics = try OTel.makeMetricsBackend(configuration: configuration)
            let tracing = try OTel.makeTracingBackend(configuration: configuration)
            MetricsSystem.bootstrap(MultiplexMetricsHandler(factories: [prometheus, metrics.factory]))
            InstrumentationSystem.bootstrap(tracing.factory)
            logger.info("exporting traces and metrics over OTLP", metadata: ["endpoint": "\(endpoint)"])
            return ServeTelemetry(registry: registry, services: [metrics.service, tracing.service])
        } catch {
            throw Failure(description: "cannot export over OTLP to \(endpoint): \(error)")
        }
        #else
        throw Failure(description: """
            OTEL_EXPORTER_OTLP_ENDPOINT (or --otlp-endpoint) is set, but this build cannot export over OTLP; \
            build with `swift build --traits OTLP`, or unset it
            """)
        #endif
    }

    /// Why telemetry could not start.
    struct Failure: Error, CustomStringConvertible {
        /// What went wrong, with what to do.
        var description: String
    }
}
