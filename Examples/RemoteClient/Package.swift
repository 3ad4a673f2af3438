// swift-tools-version: 6.1
import PackageDescription

// A command-line client of any OFREP server, on the SwitchboardRemote library: prints the keys it is given, then
// every change, until interrupted.
let package = Package(
    name: "RemoteClient",
    platforms: [.macOS(.v14)],
    products: [.executable(name: "remote-client", targets: ["RemoteClient"])],
    dependencies: [
        // In your own package: .package(url: "https://github.com/<owner>/switchboard", from: "<version>").
        .package(name: "Switchboard", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "RemoteClient",
            dependencies: [
                .product(name: "Switchboard", package: "Switchboard"),
                .product(name: "SwitchboardRemote", package: "Switchboard"),
            ]
        ),
    ]
)
