import Configuration
import Switchboard
import SwitchboardConfiguration
import SwitchboardTesting

/// The definitions every test reads: one definition of each kind the provider maps, and some it cannot.
enum TestBoard {
    static let yaml = """
        namespace: app
        flags:
          dark_mode:
            type: bool
            default: true
          max_items:
            type: int
            default: 25
          ratio:
            type: double
            default: 0.75
          whole_ratio:
            type: double
            default: 2
          theme:
            type: string
            default: ocean
          tags:
            type: list
            default: [alpha, beta]
          ports:
            type: list
            default: [80, 443]
          weights:
            type: list
            default: [1, 2.5]
          switches:
            type: list
            default: [true, false]
          mixed:
            type: list
            default: [1, two]
          nothing:
            type: list
            default: []
          limits:
            type: object
            default: { upload: 5 }
          beta_banner:
            type: bool
            default: false
            rules:
              - when: [{ attribute: plan, equals: pro }]
                serve: true
              - when: [{ attribute: targetingKey, equals: staff-1 }]
                serve: true
        preferences:
          history.sort_order:
            type: string
            values: [newest_first, oldest_first]
            default: newest_first
        """

    /// A board with the test definitions, runtime overrides in memory.
    static func board(overrides: [String: Value] = [:]) throws -> Board {
        try Board.testing(yaml: yaml, overrides: overrides)
    }

    /// A reader over a new test board.
    static func reader(context: EvaluationContext = .empty) throws -> (ConfigReader, Board) {
        let board = try board()
        return (ConfigReader(provider: SwitchboardProvider(board: board, context: context)), board)
    }
}

/// The sort orders of `app.history.sort_order`, read through `ConfigReader`'s `as:`.
enum SortOrder: String {
    case newestFirst = "newest_first"
    case oldestFirst = "oldest_first"
}
