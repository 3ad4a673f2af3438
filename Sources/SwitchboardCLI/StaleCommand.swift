import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Switchboard
import SwitchboardReferences
import SwitchboardRefsCommand
import SwitchboardTerminal

/// `switchboard stale`: one report of the definitions that can go, and why. The decision is ``StaleReport``'s;
/// this command gathers its inputs and renders it.
struct StaleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stale",
        abstract: "List the flags that can go: expired, unreferenced, constant for days, or unused on a server.",
        discussion: """
            A definition is listed for each reason that holds: it is past its expires day; no Swift code \
            references it (as switchboard refs finds, with the same --sources and --allow-unreferenced); or it \
            is a flag with no targeting (no rules, no rollout, no requires, no kill switch) whose runtime \
            override did not change (nor expire) in the store's audit log for --days days and does not expire \
            later, and no schedule step took effect in that time or is to come, so it served one value to \
            everyone. Preferences are never listed as constant: holding one value is what they are for.

            With --server URL (and its admin token, from --token-file or $SWITCHBOARD_ADMIN_TOKEN), the running \
            server's GET /v1/usage adds the definitions it did not evaluate for --days days, and the keys \
            clients asked for that no file defines. A server counts from its start: until it has counted for \
            --days days it lists none as not evaluated (a smaller --days asks less of it).

            With --at TIME, the report is as of that time, the files, the store's audit log and the server's \
            counts as they are now: what will be past its expires day by Friday, say.

            With --strict, the command exits 1 when anything is listed.
            """ + "\n\n" + Article.readMore(.retiring)
    )

    @OptionGroup var options: GlobalOptions<PrintsJSON>

    @OptionGroup var references: ReferenceOptions

    @OptionGroup var at: TimeOption

    @Option(name: .long, help: ArgumentHelp(
        "The window: a flag is constant, and a definition unused on the server, after N days.",
        valueName: "N"))
    var days = 30

    @Option(name: .long, help: ArgumentHelp(
        "A running switchboard serve to ask what clients evaluated (GET /v1/usage).", valueName: "url"))
    var server: String?

    @Option(name: .long, help: ArgumentHelp(
        "A file whose first line is the server's admin token (with --server; default: $SWITCHBOARD_ADMIN_TOKEN).",
        valueName: "path"))
    var tokenFile: String?

    @Flag(name: .long, help: "Print the report as Markdown, for a pull request or an issue.")
    var markdown = false

    @Flag(name: .long, help: "Exit 1 when anything is listed.")
    var strict = false

    func validate() throws {
        if days < 1 { throw ValidationError("--days must be at least 1") }
        if markdown, options.json { throw ValidationError("--json and --markdown cannot be combined") }
        if tokenFile != nil, server == nil { throw ValidationError("--token-file goes with --server") }
    }

    func run() async throws {
        let loaded = DefinitionLoader.load(directory: options.flags)
        let errorOutput = Terminal.standardError
        if loaded.hasErrors {
            let status = options.failure(loaded.errors)
            if !options.json {
                errorOutput.write(Message.stopped(byErrors: loaded.errors.count, "nothing was read"))
            }
            throw status
        }
        let store = try options.boardInputs().store
        let audit = try options.storeStep { () throws(StoreError) in try store.auditLog(limit: .max) }
        var usage: UsageReport?
        if let server { usage = try await fetchUsage(from: server) }
        let references = references.report(registry: loaded.registry, flags: options.flags, warnings: errorOutput)
            .report
        let report = StaleReport(registry: loaded.registry, references: references, audit: audit, usage: usage,
                                 days: days, now: at.seconds ?? SystemClock().now())
        let output = Terminal.standardOutput
        if options.json {
            output.write(report.json + "\n")
        } else if markdown {
            output.write(report.markdown)
        } else {
            output.write(report.text)
        }
        if strict, !report.isEmpty {
            errorOutput.print(diagnostic: .error(at: nil, "--strict: \(report.keys.count) stale "
                + "definition\(report.keys.count == 1 ? "" : "s")"
                + (report.server.map { ", \(Message.count($0.unknown.count, "unknown key"))" } ?? "")))
            throw ExitCode(1)
        }
    }

    /// `GET <server>/v1/usage`, with the admin token; a failure is printed and exits 1.
    private func fetchUsage(from server: String) async throws -> UsageReport {
        var token = ProcessInfo.processInfo.environment["SWITCHBOARD_ADMIN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        if let tokenFile {
            guard let text = try? String(contentsOfFile: tokenFile, encoding: .utf8) else {
                throw options.failure([.error(at: nil, "cannot read the token file \(tokenFile)")])
            }
            token = text.split(separator: "\n", omittingEmptySubsequences: false).first
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let url = (server.hasSuffix("/") ? String(server.dropLast()) : server) + "/v1/usage"
        var request = HTTPClientRequest(url: url)
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        let problem: String
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 64 << 20)
            if response.status == .ok, let usage = try? UsageReport(json: Data(body.readableBytesView)) {
                return usage
            }
            problem = response.status == .ok ? "the answer is not a usage report"
                : "the server answered \(response.status.code): \(String(buffer: body))"
        } catch {
            problem = "\(error)"
        }
        throw options.failure([.error(
            at: nil, "cannot read GET \(url): \(problem)",
            hint: "--server is a running switchboard serve; --token-file (or $SWITCHBOARD_ADMIN_TOKEN) holds its "
                + "admin token")])
    }
}
