// swift-tools-version: 6.1
import PackageDescription

// The data flow reads top to bottom: bytes → YAML nodes → definitions → registry → evaluation → answers.
let package = Package(
    name: "Switchboard",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Switchboard", targets: ["Switchboard"]),
        .library(name: "YAML", targets: ["YAML"]),
        .library(name: "SwitchboardServer", targets: ["SwitchboardServer"]),
        .library(name: "SwitchboardTesting", targets: ["SwitchboardTesting"]),
        .library(name: "SwitchboardPostgres", targets: ["SwitchboardPostgres"]),
        .library(name: "SwitchboardRemote", targets: ["SwitchboardRemote"]),
        .library(name: "SwitchboardConfiguration", targets: ["SwitchboardConfiguration"]),
        .executable(name: "switchboard", targets: ["SwitchboardCLI"]),
        .plugin(name: "SwitchboardGenerator", targets: ["SwitchboardGeneratorPlugin"]),
        .plugin(name: "switchboard-refs", targets: ["SwitchboardRefsPlugin"]),
    ],
    traits: [
        .trait(
            name: "OTLP",
            description: "`switchboard serve` exports traces and metrics over OTLP/HTTP (swift-otel); off by default "
                + "because it adds swift-protobuf and the OTLP messages to the build."
        ),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // NIOHTTPTypes and NIOHTTPTypesHTTP1: the HTTP parts the server's connection handlers see, and the codec of
        // Hummingbird's HTTP/1 pipeline, which the server's connections build themselves (Hummingbird's own
        // dependency).
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // No traits: the provider needs ConfigReader and ConfigProvider only, not the JSON/YAML file providers,
        // reloading (swift-metrics, service-lifecycle) or logging, so none of those is built.
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0", traits: []),
        // `swift package generate-documentation`: the DocC catalogs under Sources/*/Documentation.docc.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // `switchboard refs`: reads Swift sources with Swift's own parser. Only SwitchboardReferences and the
        // commands on it link it; the core library and the server never do.
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        // Sign-in through an identity provider: ID tokens and JWTs verified against the issuer's JWKS. SHA-256 of
        // access tokens comes from swift-crypto, already in the graph through postgres-nio.
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"6.0.0"),
    ],
    targets: [
        // libyaml, the system library (Debian: libyaml-dev).
        .systemLibrary(
            name: "CLibYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        // The snapshot reader cache's thread-local pointer (C, since Swift has no thread-locals).
        .target(name: "CReaderCache"),
        // The one lock every module uses (a pthread mutex, which ThreadSanitizer sees; see Locked.swift).
        .target(name: "Locking"),
        // A YAML node tree with source positions, built on libyaml's event API. Knows nothing about flags.
        .target(name: "YAML", dependencies: ["CLibYAML", "Locking"]),
        // Definitions, registry, layers, evaluation and the typed lookup API.
        // It reports through the ecosystem's APIs: swift-log, swift-metrics and swift-distributed-tracing.
        .target(
            name: "Switchboard",
            dependencies: [
                "YAML",
                "Locking",
                "CReaderCache",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        // The runtime store in PostgreSQL, shared by every replica, with LISTEN/NOTIFY.
        .target(
            name: "SwitchboardPostgres",
            dependencies: [
                "Switchboard",
                "Locking",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Test helpers for users' own tests: a board from YAML text with an in-memory store and a manual clock.
        .target(
            name: "SwitchboardTesting",
            dependencies: [
                "Switchboard",
                "Locking",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // A termios line editor for interactive prompts: editing keys, history, Tab completion.
        .target(name: "LineEditor"),
        // What the command line and the REPL share on a terminal: colours, diagnostics, tables, glob patterns.
        .target(name: "SwitchboardTerminal", dependencies: ["Switchboard", "LineEditor"]),
        // The debug REPL: sessions that run one command line each, Tab completion, and the interactive loop.
        .target(
            name: "SwitchboardREPL",
            dependencies: ["Switchboard", "YAML", "Locking", "LineEditor", "SwitchboardTerminal"]
        ),
        // Typed accessors: Swift source with one FlagKey per definition (`switchboard generate`).
        .target(name: "SwitchboardCodegen", dependencies: ["Switchboard", "YAML"]),
        // `generate` as a command, shared by `switchboard generate` and the build plugin's tool.
        .target(
            name: "SwitchboardGenerateCommand",
            dependencies: [
                "Switchboard", "SwitchboardCodegen", "SwitchboardTerminal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The build plugin's tool: `generate` alone, so a build that generates keys compiles no server stack.
        .executableTarget(
            name: "SwitchboardGenerate",
            dependencies: [
                "SwitchboardGenerateCommand", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Runs the generator on a target's flags/ folder at every build.
        .plugin(name: "SwitchboardGeneratorPlugin", capability: .buildTool(), dependencies: ["SwitchboardGenerate"]),
        // Who reads a key (`switchboard refs`): typed keys, FlagKey, string keys and ConfigReader keys found in
        // Swift sources with swift-syntax, the typed keys' names taken from the generator's key tree.
        .target(
            name: "SwitchboardReferences",
            dependencies: [
                "Switchboard", "SwitchboardCodegen",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ]
        ),
        // `refs` as a command, shared by `switchboard refs` and the command plugin's tool.
        .target(
            name: "SwitchboardRefsCommand",
            dependencies: [
                "Switchboard", "SwitchboardReferences", "SwitchboardTerminal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The command plugin's tool: `refs` alone, so `swift package switchboard-refs` compiles no server stack.
        .executableTarget(
            name: "SwitchboardRefs",
            dependencies: [
                "SwitchboardRefsCommand", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `swift package switchboard-refs [--strict] …`: refs on the package that depends on Switchboard.
        .plugin(
            name: "SwitchboardRefsPlugin",
            capability: .command(intent: .custom(
                verb: "switchboard-refs",
                description: "List the Swift code that reads each flag and preference, and keys no file defines."
            )),
            dependencies: ["SwitchboardRefs"]
        ),
        // What an edit changes (`switchboard diff`): two versions of the definitions (git revisions, folders or
        // environments) compared field by field, evaluated over a population of contexts, with the breaking risks.
        .target(name: "SwitchboardReview", dependencies: ["Switchboard", "SwitchboardTerminal", "Locking"]),
        // The web console's files (Sources/SwitchboardServer/Console/Web) as Swift, at build time, for the server.
        .executableTarget(name: "SwitchboardEmbed"),
        .plugin(name: "SwitchboardConsoleAssetsPlugin", capability: .buildTool(), dependencies: ["SwitchboardEmbed"]),
        // The HTTP server: OFREP, the admin API, health and metrics, on Hummingbird; the web console embedded.
        .target(
            name: "SwitchboardServer",
            dependencies: [
                "Switchboard",
                // The access file: people, tokens and roles, read with positions for its diagnostics.
                "YAML",
                "Locking",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                // Hummingbird's HTTP/1 pipeline, which the server's connections build themselves.
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                // Discovery, the JWKS and the token endpoint of an identity provider.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            plugins: ["SwitchboardConsoleAssetsPlugin"]
        ),
        // A client for any OFREP server: typed lookups on a local snapshot, live changes over SSE or polling, and
        // an on-disk cache of the last good answer for offline starts.
        .target(
            name: "SwitchboardRemote",
            dependencies: [
                "Switchboard",
                "Locking",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // For NIOConnectionError: what a refused connection is reported as.
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // A swift-configuration provider: ConfigReader reads flags and preferences from a board (local or remote).
        .target(
            name: "SwitchboardConfiguration",
            dependencies: ["Switchboard", "Locking", .product(name: "Configuration", package: "swift-configuration")]
        ),
        // The `switchboard` command line.
        .executableTarget(
            name: "SwitchboardCLI",
            dependencies: [
                "Switchboard",
                "SwitchboardTerminal",
                "LineEditor",
                "SwitchboardREPL",
                "SwitchboardCodegen",
                "SwitchboardGenerateCommand",
                "SwitchboardRefsCommand",
                "SwitchboardReferences",
                "SwitchboardPostgres",
                "SwitchboardReview",
                "SwitchboardServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // `stale --server`: GET /v1/usage of a running server.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "OTel", package: "swift-otel", condition: .when(traits: ["OTLP"])),
            ]
        ),
        // What every test target shares: temporary folders, child processes with a clean environment, waits
        // with deadlines. Not a product; tests only.
        .target(name: "SwitchboardTestSupport", dependencies: ["Locking"], path: "Tests/SwitchboardTestSupport"),
        .testTarget(
            name: "YAMLTests",
            dependencies: ["YAML", "Locking", "SwitchboardTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "SwitchboardTests",
            dependencies: ["Switchboard", "SwitchboardTestSupport", "Locking"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "LineEditorTests", dependencies: ["LineEditor", "SwitchboardTestSupport"]),
        .testTarget(
            name: "SwitchboardTestingTests",
            dependencies: ["Switchboard", "SwitchboardTesting", "SwitchboardTestSupport"]
        ),
        .testTarget(
            name: "SwitchboardPostgresTests",
            dependencies: [
                "Switchboard", "SwitchboardPostgres", "SwitchboardTestSupport", "SwitchboardCLI", "Locking",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "SwitchboardServerTests",
            dependencies: [
                "Switchboard", "SwitchboardServer", "SwitchboardTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                // A small identity provider inside the tests: discovery, keys it rotates, a token endpoint.
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "SwitchboardRemoteTests",
            dependencies: [
                "Switchboard", "SwitchboardRemote", "SwitchboardServer", "SwitchboardTesting", "SwitchboardTestSupport",
                "Locking",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "SwitchboardTelemetryTests",
            dependencies: [
                "Switchboard", "SwitchboardServer", "SwitchboardTesting", "SwitchboardTestSupport", "SwitchboardCLI",
                "Locking",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        .testTarget(
            name: "SwitchboardConfigurationTests",
            dependencies: [
                "Switchboard", "SwitchboardConfiguration", "SwitchboardTesting", "SwitchboardTestSupport",
                "SwitchboardRemote", "Locking", .product(name: "Configuration", package: "swift-configuration"),
            ]
        ),
        .testTarget(
            name: "SwitchboardCodegenTests",
            dependencies: ["SwitchboardCodegen", "Switchboard", "SwitchboardTestSupport"],
            exclude: ["Fixtures"]
        ),
        // The Swift samples the DocC articles show, compiled and run, so that they cannot rot; a test checks that
        // every sample in an article is here.
        .testTarget(
            name: "DocumentationSamplesTests",
            dependencies: [
                "Switchboard", "SwitchboardTesting", "SwitchboardRemote", "SwitchboardServer",
                "SwitchboardConfiguration", "SwitchboardTestSupport",
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .testTarget(
            name: "SwitchboardREPLTests",
            dependencies: ["SwitchboardREPL", "SwitchboardTerminal", "Switchboard", "LineEditor", "SwitchboardTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        // `switchboard refs`' visitors on source text, and a fixture package with every reference form.
        .testTarget(
            name: "SwitchboardReferencesTests",
            dependencies: [
                "SwitchboardReferences", "SwitchboardCodegen", "Switchboard", "SwitchboardTestSupport",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ],
            resources: [.copy("Fixtures")]
        ),
        // `switchboard diff`'s logic on real git repositories made in temporary folders.
        .testTarget(
            name: "SwitchboardReviewTests",
            dependencies: ["SwitchboardReview", "Switchboard", "SwitchboardTerminal", "SwitchboardTestSupport"]
        ),
        // The tests that run the `switchboard` executable: the command line, processes writing one store, writers
        // killed mid-write, store moves, the REPL at a terminal and from a script, `generate` as a command.
        .testTarget(
            name: "SwitchboardCLITests",
            dependencies: ["Switchboard", "SwitchboardCLI", "SwitchboardTerminal", "SwitchboardTestSupport"]
        ),
    ]
)

for target in package.targets where target.type != .system && target.type != .plugin {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
