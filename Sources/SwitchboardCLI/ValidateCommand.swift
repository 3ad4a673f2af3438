import ArgumentParser
import Foundation
import Switchboard
import SwitchboardREPL

/// `switchboard validate`: checks every definitions file and reports every problem at once.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check the definitions and report every error and warning with file:line:column.",
        discussion: "Exits 1 when there is any error; warnings (such as a flag past its expiry date) do not fail."
    )

    @OptionGroup var options: GlobalOptions

    func run() throws {
        let report = DefinitionLoader.load(directory: options.flags)
        // Every override file is checked, not only the selected environment's: each is meant for some deployment.
        var diagnostics = report.diagnostics
        let environmentName = options.environmentName ?? ProcessInfo.processInfo.environment["SWITCHBOARD_ENV"]
        var required = Set<String>()
        if let environmentName, !environmentName.isEmpty {
            required.insert(FileOverrides.paths(flagsDirectory: options.flags, environment: environmentName)[0])
        }
        let paths = Array(Set(FileOverrides.allPaths(flagsDirectory: options.flags)).union(required)).sorted()
        for path in paths {
            let files = FileOverrides.load(paths: [path], required: required)
            diagnostics += report.hasErrors ? files.diagnostics : files.diagnostics(against: report.registry)
        }
        diagnostics = Diagnostic.sorted(diagnostics)
        let errors = diagnostics.count(where: \.isError)
        let warnings = diagnostics.count - errors
        if options.json {
            let object: [String: Value] = [
                "ok": .bool(errors == 0),
                "definitions": .int(report.registry.count),
                "files": .list(report.registry.files.map(Value.string)),
                "errors": .int(errors),
                "warnings": .int(warnings),
                "diagnostics": .list(diagnostics.map(\.jsonValue)),
            ]
            print(Value.object(object).json)
        } else {
            let terminal = Terminal.standardOutput
            for diagnostic in diagnostics { terminal.print(diagnostic: diagnostic) }
            let fileCount = report.registry.files.count
            let summary = "\(options.flags): \(report.registry.count) definitions in \(fileCount) file\(fileCount == 1 ? "" : "s"), "
                + "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
            terminal.write((errors == 0 ? terminal.green(summary) : terminal.red(summary)) + "\n")
        }
        if errors > 0 { throw ExitCode(1) }
    }
}
