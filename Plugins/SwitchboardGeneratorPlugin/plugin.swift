import Foundation
import PackagePlugin

/// Generates the typed keys of a target's `flags/` folder on every build, so they never go stale and are never
/// committed.
///
/// Apply it to a target that keeps its definitions in `flags/` inside the target's directory:
///
/// ```swift
/// .executableTarget(
///     name: "CheckoutService",
///     dependencies: [.product(name: "Switchboard", package: "Switchboard")],
///     resources: [.copy("flags")],
///     plugins: [.plugin(name: "SwitchboardGenerator", package: "Switchboard")]
/// )
/// ```
///
/// The build runs `switchboard-generate --flags <target>/flags --output <work>/SwitchboardKeys.swift` whenever a
/// YAML file in the folder changes, and compiles the output with the target's sources. The keys are internal.
@main
struct SwitchboardGeneratorPlugin: BuildToolPlugin {
    /// The folder, inside the target's directory, that holds the definitions.
    static let folder = "flags"

    /// The generated file's name inside the plugin's work directory.
    static let outputName = "SwitchboardKeys.swift"

    /// One build command: `switchboard-generate` (the same command as `switchboard generate`) with every YAML file
    /// of the folder as its inputs.
    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        guard target is any SourceModuleTarget else { return [] }
        let flags = target.directoryURL.appending(path: Self.folder, directoryHint: .isDirectory)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: flags.path(percentEncoded: false), isDirectory: &isDirectory),
              isDirectory.boolValue
        else {
            Diagnostics.error(
                "target '\(target.name)' uses the SwitchboardGenerator plugin but has no \(Self.folder)/ folder; "
                    + "put its definition YAML files in \(flags.path(percentEncoded: false))")
            return []
        }
        let output = context.pluginWorkDirectoryURL.appending(path: Self.outputName)
        return [
            .buildCommand(
                displayName: "Generating Switchboard keys for \(target.name)",
                // The executable target the plugin depends on: the generator alone, without the server stack.
                executable: try context.tool(named: "SwitchboardGenerate").url,
                arguments: [
                    "--flags", flags.path(percentEncoded: false),
                    "--output", output.path(percentEncoded: false),
                ],
                inputFiles: Self.definitionFiles(in: flags),
                outputFiles: [output]
            ),
        ]
    }

    /// Every YAML file below the folder, in a stable order. Override files are included too: a few extra
    /// regenerations cost less than a missed one.
    static func definitionFiles(in folder: URL) -> [URL] {
        let keys: [URLResourceKey] = [.isRegularFileKey]
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: keys) else {
            return []
        }
        var files: [URL] = []
        for case let url as URL in enumerator where ["yaml", "yml", "json"].contains(url.pathExtension) {
            files.append(url)
        }
        return files.sorted { $0.path(percentEncoded: false) < $1.path(percentEncoded: false) }
    }
}
