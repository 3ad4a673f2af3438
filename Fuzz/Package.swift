// swift-tools-version: 6.1
import PackageDescription

// Coverage-guided fuzz targets (libFuzzer), in their own package that depends on Switchboard by path, so the main
// build stays as it is. Build and run them with `Fuzz/run TARGET SECONDS` (`Fuzz/run --list` names them); the
// script builds with `-sanitize=fuzzer,address` and testable imports, which targets need for package and internal APIs.
// Each target's main.swift hands its test to `fuzz` (FuzzSupport), which runs libFuzzer's driver.
let package = Package(
    name: "SwitchboardFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "Switchboard", path: "..")],
    targets: [
        // Starts libFuzzer's driver with a target's test.
        .target(name: "FuzzSupport"),
        // Definition files from bytes: Switchboard's YAML format and flagd's JSON and YAML files.
        .executableTarget(
            name: "FuzzDefinitions",
            dependencies: ["FuzzSupport", .product(name: "Switchboard", package: "Switchboard")]
        ),
        // The JSON reader, `Value(jsonBytes:)`, and its writer on what it read.
        .executableTarget(
            name: "FuzzJSON",
            dependencies: ["FuzzSupport", .product(name: "Switchboard", package: "Switchboard")]
        ),
        // JSONLogic rules compiled and evaluated against contexts made from the input.
        .executableTarget(
            name: "FuzzJSONLogic",
            dependencies: ["FuzzSupport", .product(name: "Switchboard", package: "Switchboard")]
        ),
        // OFREP request bodies, as the server reads them (`EvaluationContext(ofrepRequestBody:)`). On the core
        // alone: with SwitchboardServer, the sanitizer build compiled NIO, Hummingbird and BoringSSL too.
        .executableTarget(
            name: "FuzzOFREPRequest",
            dependencies: ["FuzzSupport", .product(name: "Switchboard", package: "Switchboard")]
        ),
        // Override files (`environments/NAME.yaml`, `local.overrides.yaml`) read and checked against definitions.
        .executableTarget(
            name: "FuzzOverrides",
            dependencies: [
                "FuzzSupport",
                .product(name: "Switchboard", package: "Switchboard"),
                .product(name: "YAML", package: "Switchboard"),
            ]
        ),
    ]
)
