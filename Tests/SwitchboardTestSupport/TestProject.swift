import Foundation

/// A project folder for one test: definitions under `flags/`, the runtime store in `.switchboard/` beside them.
/// It owns its temporary directory, which is removed when the last reference to the project goes away, so a
/// test holds the project and nothing else to keep its files.
public final class TestProject: Sendable {
    private let directory: TemporaryDirectory

    /// The project's folder.
    public var path: String { directory.path }
    /// The definitions folder, `<path>/flags`.
    public var flags: String { path + "/flags" }
    /// The default file store of the project's definitions.
    public var storePath: String { path + "/.switchboard/overrides.json" }

    /// Creates an empty project; `prefix` starts the folder's name, so a leftover folder tells which tests made it.
    public init(prefix: String = "switchboard-test") {
        directory = TemporaryDirectory(prefix: prefix)
    }

    /// Creates a project with one definitions file, `flags/<file>`.
    public convenience init(definitions: String, file: String = "app.yaml", prefix: String = "switchboard-test") {
        self.init(prefix: prefix)
        write("flags/" + file, definitions)
    }

    /// Creates a project whose `flags/` is a copy of a fixture folder.
    public convenience init(copyingFlags source: String, prefix: String = "switchboard-test") {
        self.init(prefix: prefix)
        try! FileManager.default.copyItem(atPath: source, toPath: flags)
    }

    /// The path of `relative` inside the project.
    public func file(_ relative: String) -> String {
        directory.file(relative)
    }

    /// Writes a file under the project (creating folders) and returns its path.
    @discardableResult
    public func write(_ relative: String, _ text: String) -> String {
        directory.write(relative, text)
    }

    /// A file's text, or `nil` when it does not exist.
    public func read(_ relative: String) -> String? {
        directory.read(relative)
    }
}

/// Definitions used by the layer, store and command-line tests.
public let sampleDefinitions = """
    namespace: app
    flags:
      new_flow:
        type: bool
        default: false
      color:
        type: string
        variants: { control: blue, treatment: green }
        default: control
      express_pay:
        type: bool
        default: false
        renamed_from: [app.quick_pay]
    preferences:
      upload.max_mb:
        type: int
        default: 25
        min: 1
        max: 500
      theme:
        type: string
        values: [system, light, dark]
        default: system
      ratio:
        type: double
        default: 0.5
      stress.a:
        type: int
        default: 0
      stress.b:
        type: int
        default: 0
    """

/// A project with `flags/app.yaml` holding `definitions`.
public func makeProject(definitions: String = sampleDefinitions) -> TestProject {
    TestProject(definitions: definitions)
}

/// `text` with every ISO 8601 time replaced by `<time>`, so transcripts compare across runs.
public func withoutTimes(_ text: String) -> String {
    text.replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/, with: "<time>")
}
