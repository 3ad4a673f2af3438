/// A board's health, in one place: what stops it from serving what its inputs hold (the last failed reload's
/// errors, a store it cannot read) and what it serves around (warnings: skipped override values, orphaned
/// runtime overrides, stale definitions, and a store it cannot read, as a diagnostic).
///
/// ``Board/status`` reads it; ``BoardEvent/status(_:)`` announces each change of ``reloadErrors`` or
/// ``storeProblem``, with the warnings of that moment (warnings change only with a publication). The server's
/// `/healthz` and the console's banner show it; the command line prints the warnings.
public struct BoardStatus: Sendable, Equatable {
    /// The errors of the last reload that failed; empty once a reload succeeds.
    public var reloadErrors: [Diagnostic] = []
    /// The runtime store's problem, when it cannot be read or reached.
    public var storeProblem: StoreError?
    /// What does not stop the board, sorted by place: warnings from loading the definitions and override files,
    /// override values the layers skipped, orphaned runtime overrides, and a store that cannot be read.
    public var warnings: [Diagnostic] = []

    /// Whether the board serves older definitions or overrides than its inputs hold: the last reload failed, or
    /// the store cannot be read. `/healthz` says `degraded` then.
    public var isDegraded: Bool { !reloadErrors.isEmpty || storeProblem != nil }

    /// Creates a status.
    ///
    /// - Parameters:
    ///   - reloadErrors: the errors of the last reload that failed.
    ///   - storeProblem: the runtime store's problem.
    ///   - warnings: what does not stop the board.
    public init(reloadErrors: [Diagnostic] = [], storeProblem: StoreError? = nil, warnings: [Diagnostic] = []) {
        self.reloadErrors = reloadErrors
        self.storeProblem = storeProblem
        self.warnings = warnings
    }
}
