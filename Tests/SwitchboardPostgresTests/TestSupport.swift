import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Switchboard
import SwitchboardPostgres
import SwitchboardTestSupport
import Testing

/// The database these tests use: `SWITCHBOARD_TEST_POSTGRES_URL`, as `scripts/test-postgres.sh start` prints it.
/// Without it the suite is skipped (one line says so); CI always sets it.
enum TestDatabase {
    static let url = ProcessInfo.processInfo.environment["SWITCHBOARD_TEST_POSTGRES_URL"]
    static let skipNote: Comment = """
        no PostgreSQL: run `scripts/test-postgres.sh start` and set SWITCHBOARD_TEST_POSTGRES_URL to the URL it prints
        """

    /// A store on the test database, in a scope of its own so tests do not see each other's rows.
    static func store(scope: String = "test-\(UUID().uuidString)") throws -> PostgresStore {
        try PostgresStore(url: url ?? "", scope: scope)
    }

    static let definitions = """
        flags:
          new_flow:
            type: bool
            default: false
        preferences:
          motto:
            type: string
            default: hello
          limit:
            type: int
            default: 5
            max: 100
        """

    /// A board on the store, with definitions from text.
    static func board(_ store: PostgresStore, polling: Duration? = nil) throws -> Board {
        let inputs = BoardInputs(definitions: .sources([("flags/a.yaml", definitions)]), environment: [:], store: store)
        return try Board(inputs: inputs, options: BoardOptions(pollInterval: polling, watchDefinitions: false))
    }

    /// A project folder holding `flags/a.yaml` with ``definitions``, and the path of its `flags` folder.
    static func project() -> (TemporaryDirectory, flags: String) {
        let directory = TemporaryDirectory()
        let file = directory.write("flags/a.yaml", definitions)
        return (directory, (file as NSString).deletingLastPathComponent)
    }
}

/// A PostgreSQL cluster of a test's own, from `scripts/test-postgres.sh`, for tests that stop or restart the
/// server: doing that to the shared test database would fail the tests that run beside them.
final class TestCluster: Sendable {
    /// The cluster's URL, with the password.
    let url: String
    /// The cluster's folder.
    let directory: String

    /// Whether PostgreSQL's server binaries are installed, so that a test can start a cluster of its own.
    static let serverIsInstalled = (try? script("installed")) != nil
    static let skipNote: Comment = """
        PostgreSQL's server is not installed (apt-get install postgresql, or set PG_BIN): this test starts a \
        cluster of its own
        """

    private init(url: String, directory: String) {
        self.url = url
        self.directory = directory
    }

    /// Starts a cluster on a free loopback port.
    static func start() async throws -> TestCluster {
        let lines = try await onOwnThread { try script("start") }.split(separator: "\n").map(String.init)
        guard lines.count >= 2 else { throw StoreError(message: "scripts/test-postgres.sh start printed \(lines)") }
        return TestCluster(url: lines[0], directory: lines[1])
    }

    /// Stops the server, keeping its data: an outage until ``resume()``.
    func pause() async throws { try await command("pause") }

    /// Starts the paused server again on the same port.
    func resume() async throws { try await command("resume") }

    /// `pg_ctl restart`: the server goes away and comes back on the same port.
    func restart() async throws { try await command("restart") }

    private func command(_ name: String) async throws {
        let directory = directory
        _ = try await onOwnThread { try Self.script(name, directory) }
    }

    /// Stops the server and removes its folder.
    func stop() { _ = try? Self.script("stop", directory) }

    /// `scripts/test-postgres.sh` with arguments; its standard output.
    @discardableResult
    static func script(_ arguments: String...) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let result = try runProcess(URL(fileURLWithPath: "/bin/bash"),
                                    [root.appendingPathComponent("scripts/test-postgres.sh").path] + arguments,
                                    timeout: .seconds(180))
        guard result.status == 0 else {
            throw StoreError(message: "scripts/test-postgres.sh \(arguments.joined(separator: " ")) failed: "
                                 + result.stderr)
        }
        return result.stdout
    }
}

/// A `switchboard serve --store URL --scope SCOPE --port 0` child process, with the admin token
/// ``Replica/adminToken``, and the HTTP requests the tests send it. Sendable, so that concurrent requests can share
/// it.
final class Replica: Sendable {
    /// The admin token every replica accepts.
    static let adminToken = "admin-secret"

    private let server: ServeProcess
    /// The port it listens on.
    var port: Int { server.port }

    /// Starts the server and waits until it listens.
    init(flags: String, url: String, scope: String, log: String) async throws {
        server = try await ServeProcess(["--flags", flags, "--store", url, "--scope", scope],
                                        environment: ["SWITCHBOARD_ADMIN_TOKEN": Self.adminToken], log: log)
    }

    /// Stops the server with SIGTERM (SIGKILL when it has not exited by the deadline) and waits for it.
    func stop() {
        server.stop()
    }

    /// What an OFREP evaluation answered.
    struct Evaluation: Sendable {
        /// The HTTP status.
        var status: UInt
        /// The `value` of the answer, when there is one.
        var value: Value?
    }

    /// `POST /ofrep/v1/evaluate/flags/{key}` on the replica at `port`.
    static func evaluate(_ key: String, on port: Int) async throws -> Evaluation {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/ofrep/v1/evaluate/flags/\(key)")
        request.method = .POST
        request.body = .bytes(ByteBuffer(string: #"{"context": {"targetingKey": "u"}}"#))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 20)
        return Evaluation(status: response.status.code,
                          value: (try? Value(json: String(buffer: body)))?.objectValue?["value"])
    }

    /// The value the replica serves for `key` over OFREP (`nil` on an error answer).
    func value(of key: String) async throws -> Value? {
        let evaluation = try await Self.evaluate(key, on: port)
        return evaluation.status == 200 ? evaluation.value : nil
    }

    /// What an admin write answered.
    struct Write: Sendable {
        /// The HTTP status.
        var status: UInt
        /// The version in the `ETag` (the key's override version), when there is one.
        var version: UInt64?
    }

    /// `PUT /v1/overrides/{key}` with `{"value": value}`, and `If-Match: "version"` when given.
    func put(_ key: String, _ value: Value, ifMatch version: UInt64? = nil, actor: String = "replica-test")
        async throws -> Write {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/overrides/\(key)")
        request.method = .PUT
        request.headers.add(name: "Authorization", value: "Bearer \(Self.adminToken)")
        if let version { request.headers.add(name: "If-Match", value: "\"\(version)\"") }
        let body: Value = ["value": value, "actor": .string(actor)]
        request.body = .bytes(ByteBuffer(string: body.json))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        _ = try await response.body.collect(upTo: 1 << 20)
        let tag = response.headers.first(name: "ETag")?.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        return Write(status: response.status.code, version: tag.flatMap { UInt64($0) })
    }

    /// The `status` of `GET /healthz`: `ok` or `degraded`.
    func health() async throws -> String? {
        let request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/healthz")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 20)
        return (try? Value(json: String(buffer: body)))?.objectValue?["status"]?.stringValue
    }
}

extension Duration {
    /// The duration in milliseconds, for the figures tests print.
    var milliseconds: Double {
        Double(components.seconds) * 1e3 + Double(components.attoseconds) / 1e15
    }
}
