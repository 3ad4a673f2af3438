import Foundation
import PackagePlugin

/// Embeds the web console's files (`Console/Web/` of the server target: the page, script, styles and icon) into the
/// server at every build, so the repository keeps them as real web files and a lone `switchboard` binary still
/// serves all of them. The Swift file it generates lives in the plugin's work directory and is never committed.
@main
struct SwitchboardConsoleAssetsPlugin: BuildToolPlugin {
    /// The folder, inside the target's directory, that holds the files.
    static let folder = "Console/Web"

    /// The file types embedded; anything else in the folder (a README, say) is left out.
    static let extensions: Set<String> = ["html", "js", "css", "svg"]

    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        guard target is any SourceModuleTarget else { return [] }
        let web = target.directoryURL.appending(path: Self.folder, directoryHint: .isDirectory)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: web.path(percentEncoded: false))) ?? []
        let files = names.filter { Self.extensions.contains(URL(fileURLWithPath: $0).pathExtension) }.sorted()
            .map { web.appending(path: $0) }
        guard !files.isEmpty else {
            Diagnostics.error("target '\(target.name)' has no web files in \(web.path(percentEncoded: false))")
            return []
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "ConsoleAssets+Embedded.swift")
        return [
            .buildCommand(
                displayName: "Embedding the web console's files in \(target.name)",
                executable: try context.tool(named: "SwitchboardEmbed").url,
                arguments: ["--output", output.path(percentEncoded: false)]
                    + files.map { $0.path(percentEncoded: false) },
                // The fuzz build compiles every tool with AddressSanitizer; a build tool's own leak check (of
                // Foundation's buffers at exit) must not fail the build.
                environment: ["ASAN_OPTIONS": "detect_leaks=0"],
                inputFiles: files,
                outputFiles: [output]
            ),
        ]
    }
}
