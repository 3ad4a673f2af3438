// swift-tools-version: 6.1
import PackageDescription

// A service that keeps its flag definitions in its own target and gets typed keys for them at every build from the
// SwitchboardGenerator plugin: nothing generated is committed.
let package = Package(
    name: "CheckoutService",
    platforms: [.macOS(.v14)],
    dependencies: [
        // In your own package: .package(url: "https://github.com/<owner>/switchboard", from: "<version>").
        .package(name: "Switchboard", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "CheckoutService",
            dependencies: [.product(name: "Switchboard", package: "Switchboard")],
            // The same YAML the keys are generated from is loaded at run time.
            resources: [.copy("flags")],
            plugins: [.plugin(name: "SwitchboardGenerator", package: "Switchboard")]
        ),
    ]
)
