// swift-tools-version: 6.1
import PackageDescription

// An app's settings as code holds them: typed preferences behind property wrappers, a Codable struct as one of
// them, and Observation telling the app which of them changed. Run from the repository root with no arguments:
// it reads `flags/` and the store `switchboard set` writes there.
let package = Package(
    name: "PreferencesApp",
    platforms: [.macOS(.v14)],
    products: [.executable(name: "preferences-app", targets: ["PreferencesApp"])],
    dependencies: [
        // In your own package: .package(url: "https://github.com/<owner>/switchboard", from: "<version>").
        .package(name: "Switchboard", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "PreferencesApp",
            dependencies: [.product(name: "Switchboard", package: "Switchboard")]
        ),
    ]
)
