// swift-tools-version: 6.1
import PackageDescription

// An app that reads its configuration through swift-configuration's ConfigReader, with Switchboard's flags and
// preferences as one of its providers: prints what it reads, then follows one key's changes.
let package = Package(
    name: "ConfigReaderApp",
    platforms: [.macOS(.v15)],
    products: [.executable(name: "config-reader-app", targets: ["ConfigReaderApp"])],
    dependencies: [
        // In your own package: .package(url: "https://github.com/<owner>/switchboard", from: "<version>").
        .package(name: "Switchboard", path: "../.."),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0", traits: []),
    ],
    targets: [
        .executableTarget(
            name: "ConfigReaderApp",
            dependencies: [
                .product(name: "Switchboard", package: "Switchboard"),
                .product(name: "SwitchboardConfiguration", package: "Switchboard"),
                .product(name: "Configuration", package: "swift-configuration"),
            ]
        ),
    ]
)
