import Foundation
import PackagePlugin

/// `swift package switchboard-refs [--strict] [--json] …`: `switchboard refs` on the package, for projects that
/// use Switchboard as a dependency, run by the lean `SwitchboardRefs` tool (no server stack to build).
///
/// The definitions are the package's `flags/` folder, else the first target's `flags/` folder (where the
/// SwitchboardGenerator build plugin reads them); the sources are the package's `Sources` and `Tests`. Both can
/// be given as with `switchboard refs` (`--flags DIR`, `--sources PATH…`); paths are relative to the package.
@main
struct SwitchboardRefsPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let package = context.package.directoryURL
        var arguments = arguments
        if !arguments.contains("--flags"), let flags = Self.definitions(in: context.package) {
            arguments += ["--flags", flags.path(percentEncoded: false)]
        }
        if !arguments.contains("--sources") {
            let folders = ["Sources", "Tests"].map { package.appending(path: $0).path(percentEncoded: false) }
            arguments += ["--sources"] + folders
        }
        let process = Process()
        process.executableURL = try context.tool(named: "SwitchboardRefs").url
        process.arguments = arguments
        process.currentDirectoryURL = package
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            Diagnostics.error("switchboard-refs exited with status \(process.terminationStatus)")
            throw PluginFailure(status: process.terminationStatus)
        }
    }

    /// The package's `flags/` folder, else the first source target's.
    static func definitions(in package: Package) -> URL? {
        let candidates = [package.directoryURL.appending(path: "flags", directoryHint: .isDirectory)]
            + package.targets.map { $0.directoryURL.appending(path: "flags", directoryHint: .isDirectory) }
        return candidates.first { url in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path(percentEncoded: false), isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
    }
}

/// The tool's failure, so `swift package` exits non-zero as the tool did.
struct PluginFailure: Error, CustomStringConvertible {
    var status: Int32
    var description: String { "switchboard-refs failed (status \(status))" }
}
