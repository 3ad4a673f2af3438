// swift-tools-version: 6.1
import PackageDescription

// `Benchmarks/run load-compare`'s Yams peer: an executable of its own that does not link Switchboard, since Yams
// carries its own copy of libyaml and one binary with both would hold two `yaml_parser_parse`.
let package = Package(
    name: "YamsLoad",
    products: [.executable(name: "yams-load", targets: ["YamsLoad"])],
    dependencies: [.package(url: "https://github.com/jpsim/Yams", exact: "6.2.2")],
    targets: [.executableTarget(name: "YamsLoad", dependencies: [.product(name: "Yams", package: "Yams")])]
)
