/// A board's health: the errors of the last failed reload, and the store's problem.
public struct BoardStatus: Sendable, Equatable {
    /// The errors of the last reload that failed; empty once a reload succeeds.
    public var reloadErrors: [Diagnostic] = []
    /// The runtime store's problem, when it cannot be read or reached.
    public var storeProblem: String?

    /// Whether the board serves older definitions or overrides than its inputs hold: the last reload failed, or
    /// the store cannot be read. `/healthz` says `degraded` then.
    public var isDegraded: Bool { !reloadErrors.isEmpty || storeProblem != nil }

    /// Creates a status.
    public init(reloadErrors: [Diagnostic] = [], storeProblem: String? = nil) {
        self.reloadErrors = reloadErrors
        self.storeProblem = storeProblem
    }
}
