public import Switchboard

/// Writes Swift source with one typed ``Switchboard/FlagKey`` per definition, so a misspelt key or a wrong type
/// is a compile error instead of a default at run time.
///
/// ```swift
/// let report = DefinitionLoader.load(directory: "flags")
/// let generated = AccessorGenerator(access: .public).generate(report.registry)
/// if !generated.hasErrors { print(generated.source, terminator: "") }
/// ```
///
/// The naming rules, which the generated file's users see:
///
/// - Flags are under `Flags`, preferences under `Prefs`, with one nested enum per key segment and the last
///   segment as a `static let`: `checkout.new_flow` is `Flags.Checkout.newFlow`, the preference
///   `app.history.sort_order` is `Prefs.App.History.sortOrder`.
/// - Segments are split at `_` and `-` into camel case (`max_mb` → `maxMb`, enum `MaxMb`); a name starting with
///   a digit gets a leading `_`; a keyword is escaped with backticks (`` `default` ``); an enum named `Type` or
///   `Protocol` gets a trailing `_`.
/// - A string preference with `values`, or a string flag with variants, gets a `String`-backed enum named after
///   its last segment (`SortOrder`), declared beside its key. Its cases come from the values (`newestFirst`
///   for `newest_first`) or, for a flag, from the variant names, with the variants' values as raw values.
/// - Two keys or segments that become the same Swift name in one enum are an error at the later one.
///
/// The output depends only on the registry, ``access`` and ``today``: the same definitions give the same bytes.
public struct AccessorGenerator: Sendable {
    /// The access level of the generated declarations.
    public enum Access: String, Sendable, CaseIterable {
        /// `public`: for a library whose users look keys up themselves.
        case `public`
        /// Internal (no modifier): for keys used only inside the module that holds them.
        case `internal`
    }

    /// The access level of the generated declarations.
    public var access: Access
    /// The day that decides which flags are past `expires` and so marked deprecated.
    public var today: Day

    /// Creates a generator.
    public init(access: Access = .internal, today: Day = .today()) {
        self.access = access
        self.today = today
    }

    /// The Swift source for a registry's definitions, with every problem found on the way.
    ///
    /// A definition whose name collides with another's is left out and reported as an error at its
    /// `file:line:column`; the source holds the rest.
    public func generate(_ registry: Registry) -> GeneratedSource {
        let tree = KeyTree(registry.definitions)
        var writer = SourceWriter(tree: tree, access: access, today: today)
        writer.writeFile(files: registry.files)
        let diagnostics = Diagnostic.sorted(tree.diagnostics + writer.diagnostics)
        return GeneratedSource(source: writer.text, diagnostics: diagnostics)
    }
}

/// Generated Swift source and what was found while generating it.
public struct GeneratedSource: Sendable, Hashable {
    /// The Swift source, ending with a newline.
    public var source: String
    /// Errors (names that collide; those definitions are missing from ``source``) and warnings (keys typed
    /// `String` because their values cannot be enum cases), in file and line order.
    public var diagnostics: [Diagnostic]

    /// Creates generated source.
    public init(source: String, diagnostics: [Diagnostic]) {
        self.source = source
        self.diagnostics = diagnostics
    }

    /// Whether any diagnostic is an error, so ``source`` is incomplete.
    public var hasErrors: Bool { diagnostics.contains(where: \.isError) }
}
