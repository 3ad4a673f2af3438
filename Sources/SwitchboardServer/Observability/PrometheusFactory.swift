public import Prometheus

extension FlagServer {
    /// A Prometheus factory for `registry`, with histogram buckets that resolve OFREP's latencies (50 µs to
    /// 1 s); bootstrap the `MetricsSystem` with it, or give it to `BoardOptions/metricsFactory`, and pass
    /// `registry` as ``ServerConfiguration/prometheus`` to serve it at `GET /metrics`.
    public static func prometheusFactory(registry: PrometheusCollectorRegistry) -> PrometheusMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets[ServerMetrics.latencyLabel] = [
            .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1),
            .microseconds(2500), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(100),
            .seconds(1),
        ]
        return factory
    }
}
