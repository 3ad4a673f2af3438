import ArgumentParser
import Switchboard

/// `switchboard version`: the same text as `switchboard --version`, from `SwitchboardVersion`.
struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version",
        abstract: "Print Switchboard's version (the same as --version, /healthz and switchboard_build_info).")

    @Flag(name: .long, help: "Print machine-readable JSON: {\"version\": \"…\"}.")
    var json = false

    func run() {
        print(json ? Value.object(["version": .string(SwitchboardVersion.current)]).json : SwitchboardVersion.current)
    }
}
