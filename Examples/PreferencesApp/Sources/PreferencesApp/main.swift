// preferences-app [--flags DIR]
//
// A settings model built from `@Preference` properties and a `BoardModel`: prints each preference once, then a
// line for every change, from this process or any other (`switchboard set app.theme dark` in another terminal),
// until interrupted.
import Foundation
import Observation
import Switchboard

/// Writes a line at once: unbuffered, so a pipe sees each line as it is printed.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

enum Theme: String, FlagValue { case system, light, dark }
enum SortOrder: String, FlagValue { case newestFirst = "newest_first", oldestFirst = "oldest_first" }

/// `app.support`, an object preference, as a Swift struct.
struct Support: CodableFlagValue, Equatable {
    var email: String
    var url: String
}

enum Prefs {
    static let theme = FlagKey("app.theme", default: Theme.system)
    static let sortOrder = FlagKey("app.history.sort_order", default: SortOrder.newestFirst)
    static let uploadLimit = FlagKey("app.upload.max_mb", default: 25)
    static let support = FlagKey("app.support", default: Support(email: "help@example.com", url: ""))
}

/// The app's settings: each property reads its preference and persists an assignment through the board.
final class Settings {
    @Preference<Theme, Board> var theme: Theme
    @Preference<SortOrder, Board> var sortOrder: SortOrder
    @Preference<Int, Board> var uploadLimit: Int
    @Preference<Support, Board> var support: Support

    init(board: Board) {
        _theme = Preference(Prefs.theme, on: board, actor: "preferences-app")
        _sortOrder = Preference(Prefs.sortOrder, on: board, actor: "preferences-app")
        _uploadLimit = Preference(Prefs.uploadLimit, on: board, actor: "preferences-app")
        _support = Preference(Prefs.support, on: board, actor: "preferences-app")
    }

    /// Every preference as `key = value` lines, in a fixed order.
    var lines: [(key: String, text: String)] {
        [
            (Prefs.theme.key, theme.rawValue),
            (Prefs.sortOrder.key, sortOrder.rawValue),
            (Prefs.uploadLimit.key, "\(uploadLimit)"),
            (Prefs.support.key, "\(support.email) (\(support.url))"),
        ]
    }
}

var flags = "flags"
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    guard argument == "--flags", let value = arguments.popFirst() else {
        FileHandle.standardError.write(Data("usage: preferences-app [--flags DIR]\n".utf8))
        exit(2)
    }
    flags = value
}

let board: Board
do {
    // The default store beside the definitions, watched every 250 ms: a change made by another process arrives.
    board = try Board(directory: flags)
} catch {
    FileHandle.standardError.write(Data("preferences-app: \(error)\n".utf8))
    exit(1)
}
let settings = Settings(board: board)
let model = BoardModel(board)

var shown: [String: String] = [:]
for line in settings.lines {
    say("\(line.key) = \(line.text)")
    shown[line.key] = line.text
}

// Observation says when one of the preferences read through the model changes; the loop then prints what changed.
let (changes, changed) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
func track() {
    withObservationTracking {
        _ = (model[Prefs.theme], model[Prefs.sortOrder], model[Prefs.uploadLimit], model[Prefs.support])
    } onChange: {
        changed.yield()
    }
}
track()
for await _ in changes {
    track()
    for line in settings.lines where shown[line.key] != line.text {
        say("\(line.key) = \(line.text)")
        shown[line.key] = line.text
    }
}
