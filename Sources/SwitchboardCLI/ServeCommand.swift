import ArgumentParser
import Foundation
import Logging
import Switchboard
import SwitchboardTerminal
import SwitchboardServer

/// `switchboard serve`: OFREP evaluation, the admin API, health and metrics over HTTP, with live reload.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve evaluations over HTTP (OFREP), with an admin API, a web console at /, health and metrics.",
        discussion: """
            Definitions and the runtime store are watched: a change is served within a second, and an edit that \
            does not validate leaves the last good definitions in service (GET /healthz reports it). The admin \
            API needs a token ($SWITCHBOARD_ADMIN_TOKEN or --admin-token-file); without one it is off. OFREP is \
            open unless a read token is set ($SWITCHBOARD_READ_TOKEN or --read-token-file), and so is the \
            console at /, read-only without the admin token. Serving beyond loopback with no token at all logs a \
            warning. A connection whose request head is slow to arrive, or that sits idle, is closed; one past \
            --max-connections gets 503. At start the soft limit on open files is raised to the hard one. SIGINT or \
            SIGTERM stops the server gracefully.
            """ + "\n\n" + Article.readMore(.server))

    @OptionGroup var options: GlobalOptions<NoJSON>

    @Option(help: ArgumentHelp("The address to listen on; the default accepts connections from this machine only.",
                               valueName: "address"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The port to listen on (0: any free port, logged at start).", valueName: "port"))
    var port = 8016

    @Option(help: ArgumentHelp("A file holding the admin token (default: $SWITCHBOARD_ADMIN_TOKEN).",
                               valueName: "path"))
    var adminTokenFile: String?

    @Option(help: ArgumentHelp("A file holding the token OFREP requests must present (default: "
                               + "$SWITCHBOARD_READ_TOKEN; none: OFREP is open).", valueName: "path"))
    var readTokenFile: String?

    @Option(help: ArgumentHelp("The access file: people with their own tokens and roles, and sign-in through an "
                               + "identity provider (default: $SWITCHBOARD_ACCESS_FILE). Watched: changes take "
                               + "effect without a restart.", valueName: "path"))
    var accessFile: String?

    @Option(help: ArgumentHelp("The largest request body accepted, in bytes; larger ones get 413.",
                               valueName: "bytes"))
    var maxBodyBytes = ServerConfiguration.defaultMaxBodyBytes

    @Option(help: ArgumentHelp("Close a connection whose request head has not arrived this many seconds after its "
                               + "first byte (408 when a response can be written).", valueName: "seconds"))
    var headerTimeout = Self.seconds(ServerConfiguration.defaultHeaderTimeout)

    @Option(help: ArgumentHelp("Close a keep-alive connection with no request in progress for this many seconds "
                               + "(event streams are never idle).", valueName: "seconds"))
    var idleTimeout = Self.seconds(ServerConfiguration.defaultIdleTimeout)

    @Option(help: ArgumentHelp("Serve at most this many connections at once; more get 503 with Retry-After "
                               + "(never more than the open-files limit leaves room for).", valueName: "count"))
    var maxConnections = ServerConfiguration.defaultMaxConnections

    @Option(name: .customLong("trusted-proxy"), help: ArgumentHelp(
        "A reverse proxy (an IP address or CIDR block; repeatable) whose X-Forwarded-For names the client, so that "
            + "failed sign-ins lock out that client rather than everyone behind the proxy.", valueName: "address"))
    var trustedProxies: [String] = []

    @Option(name: .customLong("cors-origin"), help: ArgumentHelp(
        "A web origin whose pages may call OFREP from a browser (scheme://host[:port], or * for any; repeatable). "
            + "The admin API and the console stay same-origin.", valueName: "origin"))
    var corsOrigins: [String] = []

    @Option(help: ArgumentHelp("trace, debug, info, notice, warning, error or critical.", valueName: "level"))
    var logLevel = "info"

    @Option(help: ArgumentHelp("Export traces and metrics over OTLP/HTTP to this base URL (default: "
                               + "$OTEL_EXPORTER_OTLP_ENDPOINT; needs a build with --traits OTLP).",
                               valueName: "url"))
    var otlpEndpoint: String?

    @Flag(help: ArgumentHelp("Put each value in the feature_flag.evaluation events of OFREP evaluations (off: "
                             + "values can be large or private)."))
    var traceValues = false

    func validate() throws {
        if options.json { throw ValidationError("serve has no --json output; its log is text on standard error") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard maxBodyBytes > 0 else { throw ValidationError("--max-body-bytes must be positive") }
        for (name, value) in [("--header-timeout", headerTimeout), ("--idle-timeout", idleTimeout)]
        where !(value > 0 && value <= 86_400) {
            throw ValidationError("\(name) must be a number of seconds above 0 and at most 86400 (a day)")
        }
        guard maxConnections > 0 else { throw ValidationError("--max-connections must be positive") }
        do throws(TrustedProxies.Invalid) {
            _ = try TrustedProxies(trustedProxies)
        } catch {
            throw ValidationError(error.description)
        }
        do throws(AllowedOrigins.Invalid) {
            _ = try AllowedOrigins(corsOrigins)
        } catch {
            throw ValidationError(error.description)
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
        }
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "switchboard.server")
        do {
            try DescriptorLimit.raiseSoftToHard()
        } catch {
            // Serving goes on: the connection cap follows the limit in force, and the "listening" line shows it.
            logger.warning("\(error)")
        }
        var configuration: ServerConfiguration
        let telemetry: ServeTelemetry
        do {
            telemetry = try ServeTelemetry.bootstrap(otlpEndpoint: otlpEndpoint, logger: logger)
            configuration = ServerConfiguration(
                host: host, port: port,
                adminToken: try AccessToken.load(file: adminTokenFile, environmentVariable: "SWITCHBOARD_ADMIN_TOKEN"),
                readToken: try AccessToken.load(file: readTokenFile, environmentVariable: "SWITCHBOARD_READ_TOKEN"),
                maxBodyBytes: maxBodyBytes, handlesSignals: true, prometheus: telemetry.registry,
                traceValues: traceValues)
            configuration.headerTimeout = .milliseconds(Int64((headerTimeout * 1000).rounded()))
            configuration.idleTimeout = .milliseconds(Int64((idleTimeout * 1000).rounded()))
            configuration.maxConnections = maxConnections
            configuration.trustedProxies = try TrustedProxies(trustedProxies)
            configuration.corsOrigins = try AllowedOrigins(corsOrigins)
            configuration.accessFile = accessFile ?? ProcessInfo.processInfo.environment["SWITCHBOARD_ACCESS_FILE"]
                .flatMap { $0.isEmpty ? nil : $0 }
        } catch {
            Terminal.standardError.write("error: \(error)\n")
            throw ExitCode(1)
        }
        if let path = configuration.accessFile {
            // Checked here too, so its mistakes print as `validate` prints a definition's, before anything listens.
            do {
                _ = try AccessFile.load(path: path)
            } catch {
                for diagnostic in error.diagnostics { Terminal.standardError.print(diagnostic: diagnostic) }
                throw ExitCode(1)
            }
        }
        let server = FlagServer(board: try openWatchedBoard(), configuration: configuration, logger: logger)
        do {
            try await server.run(alongside: telemetry.services)
        } catch let error as FlagServer.StartError {
            Terminal.standardError.print(diagnostic: .error(at: nil, "cannot serve: \(error.description)",
                                                            hint: error.hint))
            throw ExitCode(1)
        } catch {
            Terminal.standardError.write("error: cannot serve on \(host):\(port): \(error)\n")
            throw ExitCode(1)
        }
    }

    /// A duration as the command line gives it: seconds, fractions allowed.
    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Opens the board as `openBoard()` does, but watching: the store and definitions are polled every 200 ms, so
    /// with the server's own check a change is served well within a second.
    private func openWatchedBoard() throws -> Board {
        let inputs = try options.boardInputs()
        var boardOptions = options.boardOptions
        boardOptions.pollInterval = .milliseconds(200)
        boardOptions.watchDefinitions = true
        boardOptions.logger = Logger(label: "switchboard")
        do {
            let board = try Board(inputs: inputs, options: boardOptions)
            for diagnostic in board.status.warnings { Terminal.standardError.print(diagnostic: diagnostic) }
            return board
        } catch {
            for diagnostic in error.diagnostics { Terminal.standardError.print(diagnostic: diagnostic) }
            Terminal.standardError.write(
                Message.stopped(byErrors: error.diagnostics.count(where: \.isError), "not serving"))
            throw ExitCode(1)
        }
    }
}
