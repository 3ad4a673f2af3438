import ArgumentParser
import Foundation
import LineEditor
import Switchboard
import SwitchboardServer
import SwitchboardTerminal

/// `switchboard access add|list|revoke`: the people of a server's access file.
struct AccessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "access",
        abstract: "Give people their own tokens and roles on a server (`serve --access-file`), list them, revoke them.",
        discussion: Article.readMore(.access),
        subcommands: [AddCommand.self, ListCommand.self, RevokeCommand.self]
    )

    /// The access file option every subcommand shares.
    struct FileOption: ParsableArguments {
        @Option(help: ArgumentHelp("The access file (default: $SWITCHBOARD_ACCESS_FILE).", valueName: "path"))
        var accessFile: String?

        /// The path, or a usage error naming both ways to give it.
        func path() throws -> String {
            if let accessFile { return accessFile }
            if let path = ProcessInfo.processInfo.environment["SWITCHBOARD_ACCESS_FILE"], !path.isEmpty { return path }
            throw ValidationError("give the access file with --access-file PATH or $SWITCHBOARD_ACCESS_FILE")
        }

        /// Checks ``path()`` while the command line is parsed, so the refusal shows the subcommand's usage.
        func validate() throws {
            _ = try path()
        }
    }

    /// `switchboard access add NAME --role ROLE [--namespaces a,b]`.
    struct AddCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a person with a new token; the token is printed once and only its SHA-256 is kept.",
            discussion: Article.readMore(.access))

        @Argument(help: "The person's name, as the audit log will record it.")
        var name: String

        @Option(help: ArgumentHelp("read, write or admin.", valueName: "role"))
        var role: String

        @Option(help: ArgumentHelp("For the role write: the only namespaces (key prefixes) the person may write, "
                                   + "comma-separated; none: every key.", valueName: "list"))
        var namespaces: String?

        @OptionGroup var file: FileOption

        /// The grant `--role` and `--namespaces` ask for, or a usage error.
        func grant() throws -> Grant {
            guard let role = Role(rawValue: role) else {
                let hint = Suggestions.nearest(to: role, in: Role.allCases.map(\.rawValue)).map(Message.didYouMean(one:))
                throw ValidationError("unknown role '\(role)'" + (hint.map { "; \($0)" } ?? ": use read, write or admin"))
            }
            let list = namespaces.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
            if list != nil, role != .write {
                throw ValidationError("--namespaces limits writers only; use it with --role write")
            }
            return Grant(role: role, namespaces: list)
        }

        /// Checks ``grant()`` while the command line is parsed, so a refusal shows this subcommand's usage (thrown
        /// from `run`, it showed the top-level one).
        func validate() throws {
            _ = try grant()
        }

        func run() throws {
            let grant = try grant()
            let path = try file.path()
            let token = try edit { () throws(AccessFileEditor.Refusal) in
                try AccessFileEditor.add(name: name, grant: grant, toFileAt: path)
            }
            let terminal = Terminal.standardOutput
            terminal.write("added \(name) (\(grant)) to \(path)\n")
            terminal.write("token: \(token)\n")
            terminal.write(terminal.dim("This is the only time the token is shown: hand it to \(name) now. A server "
                                        + "watching the file accepts it within a second.") + "\n")
        }
    }

    /// `switchboard access list`.
    struct ListCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the people of an access file with their roles.",
            discussion: Article.readMore(.access))

        @OptionGroup var file: FileOption

        @Flag(help: "Print JSON.")
        var json = false

        func run() throws {
            let path = try file.path()
            let contents: AccessFile
            do {
                let (loaded, warnings) = try AccessFile.load(path: path)
                for warning in warnings { Terminal.standardError.print(diagnostic: warning) }
                contents = loaded
            } catch {
                Diagnostic.reportFailure(error.diagnostics, json: json)
                throw ExitCode(1)
            }
            if json {
                let people: [Value] = contents.people.map { person in
                    [
                        "name": .string(person.name), "role": .string(person.grant.role.rawValue),
                        "namespaces": person.grant.namespaces.map { .list($0.map(Value.string)) } ?? .null,
                        "token_sha256": .string(person.tokenSHA256),
                    ]
                }
                var document: [String: Value] = ["people": .list(people), "anonymous_read": .bool(contents.anonymousRead)]
                if let oidc = contents.oidc { document["oidc_issuer"] = .string(oidc.issuer.absoluteString) }
                print(Value.object(document).json)
                return
            }
            let terminal = Terminal.standardOutput
            guard !contents.people.isEmpty else {
                terminal.write("no people in \(path); add one with `switchboard access add NAME --role read`\n")
                return
            }
            // The name and the grant padded to their widest, so the token column lines up.
            let names = contents.people.map { DisplayWidth.oneLine($0.name) }
            let grants = contents.people.map { "\($0.grant)" }
            let nameWidth = max(names.map(DisplayWidth.of).max() ?? 0, 4)
            let grantWidth = grants.map(DisplayWidth.of).max() ?? 0
            for (index, person) in contents.people.enumerated() {
                terminal.write(terminal.bold(DisplayWidth.padded(names[index], to: nameWidth)) + "  "
                               + DisplayWidth.padded(grants[index], to: grantWidth) + "  "
                               + terminal.dim("sha256 " + person.tokenSHA256.prefix(12) + "…") + "\n")
            }
            if contents.anonymousRead { terminal.write(terminal.dim("OFREP answers without a token (anonymous_read)") + "\n") }
            if let oidc = contents.oidc {
                terminal.write(terminal.dim("sign-in through \(oidc.issuer.absoluteString), "
                                            + "\(oidc.roleMap.count) mapped groups") + "\n")
            }
        }
    }

    /// `switchboard access revoke NAME`.
    struct RevokeCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke",
            abstract: "Remove a person; a server watching the file refuses their token within a second.",
            discussion: Article.readMore(.access))

        @Argument(help: "The person's name.")
        var name: String

        @OptionGroup var file: FileOption

        func run() throws {
            let path = try file.path()
            try edit { () throws(AccessFileEditor.Refusal) in try AccessFileEditor.revoke(name: name, inFileAt: path) }
            Terminal.standardOutput.write("revoked \(name) in \(path)\n")
        }
    }
}

/// Runs an access file edit, printing a refusal (and an invalid file's diagnostics) and exiting 1.
private func edit<T>(_ body: () throws(AccessFileEditor.Refusal) -> T) throws -> T {
    do {
        return try body()
    } catch {
        for diagnostic in error.diagnostics { Terminal.standardError.print(diagnostic: diagnostic) }
        Terminal.standardError.print(diagnostic: .error(at: nil, error.message, hint: error.hint))
        throw ExitCode(1)
    }
}
