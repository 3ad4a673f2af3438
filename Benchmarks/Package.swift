// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in their own package, depending on Switchboard by path, so the main build and CI stay lean.
// Run them with `Benchmarks/run load|lookup|targeting|store|server|remote|remote-faults|replicas|refs|soak|fanout`
// (always built in release).
let package = Package(
    name: "SwitchboardBenchmarks",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "switchboard-bench", targets: ["SwitchboardBenchmarks"]),
        .executable(name: "remote-bench", targets: ["RemoteBenchmarks"]),
        .executable(name: "remote-faults-bench", targets: ["RemoteFaultBenchmarks"]),
        .executable(name: "refs-bench", targets: ["RefsBenchmarks"]),
        .executable(name: "fanout-bench", targets: ["FanoutBenchmark"]),
    ],
    dependencies: [
        .package(name: "Switchboard", path: ".."),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
    ],
    targets: [
        // Counts malloc calls, to check that a lookup allocates nothing.
        .target(name: "AllocationCounter"),
        .executableTarget(
            name: "SwitchboardBenchmarks",
            dependencies: [
                "AllocationCounter",
                .product(name: "Switchboard", package: "Switchboard"),
                .product(name: "SwitchboardTesting", package: "Switchboard"),
                .product(name: "YAML", package: "Switchboard"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        // `Benchmarks/run remote`: RemoteBoard lookups against Board's, and change propagation over SSE.
        .executableTarget(
            name: "RemoteBenchmarks",
            dependencies: [
                .product(name: "Switchboard", package: "Switchboard"),
                .product(name: "SwitchboardRemote", package: "Switchboard"),
                .product(name: "SwitchboardServer", package: "Switchboard"),
            ]
        ),
        // `Benchmarks/run remote-faults`: a RemoteBoard against a refused port, a silent server and a restart.
        .executableTarget(
            name: "RemoteFaultBenchmarks",
            dependencies: [
                .product(name: "Switchboard", package: "Switchboard"),
                .product(name: "SwitchboardRemote", package: "Switchboard"),
                .product(name: "SwitchboardServer", package: "Switchboard"),
            ]
        ),
        // `Benchmarks/run refs`: `switchboard refs` on 2,000 generated files, against parsing them alone.
        .executableTarget(
            name: "RefsBenchmarks",
            dependencies: [.product(name: "SwiftParser", package: "swift-syntax")]
        ),
        // `Benchmarks/run fanout N`: N event streams on a running server, its memory and a change's delivery.
        // Plain sockets, no dependencies, so it builds in seconds.
        .executableTarget(name: "FanoutBenchmark", dependencies: ["CEpoll"]),
        // Linux's epoll for it: Swift's Glibc module does not include <sys/epoll.h>.
        .target(name: "CEpoll"),
    ]
)
