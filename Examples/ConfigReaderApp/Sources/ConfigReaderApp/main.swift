// config-reader-app --flags DIR [--state PATH] [--watch KEY]
//
// Reads its settings through swift-configuration's ConfigReader: Switchboard's flags and preferences first, then
// an in-memory provider for what is not a flag. Prints them, and with --watch, the key's value now and after every
// change (a `switchboard set` from another process, say) until interrupted.
import Configuration
import Foundation
import Switchboard
import SwitchboardConfiguration

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("config-reader-app: \(message)\n".utf8))
    exit(2)
}

/// Writes a line at once: unbuffered, so a pipe sees each line as it is printed.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

var flags = "flags"
var state: String?
var watched: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    guard let value = arguments.popFirst() else { fail("\(argument) needs a value") }
    switch argument {
    case "--flags": flags = value
    case "--state": state = value
    case "--watch": watched = value
    default: fail("unknown option \(argument)")
    }
}

enum SortOrder: String {
    case newestFirst = "newest_first"
    case oldestFirst = "oldest_first"
}

let board: Board
do {
    board = try Board(inputs: BoardInputs(directory: flags, statePath: state))
} catch {
    fail("\(error)")
}

// Providers are asked in order: a key Switchboard does not define falls through to the next one.
let config = ConfigReader(providers: [
    SwitchboardProvider(board: board),
    InMemoryProvider(values: ["http.port": 8080]),
])

say("dark mode: \(config.bool(forKey: "app.dark_mode", default: true) ? "on" : "off")")
say("upload limit: \(config.int(forKey: "app.upload.max_mb", default: 1)) MB")
say("allowed types: \(config.stringArray(forKey: "app.upload.allowed_types", default: []).joined(separator: ", "))")
say("first retry after: \(config.double(forKey: "app.retry.backoff_seconds", default: 0)) s")
say("history: \(config.string(forKey: "app.history.sort_order", as: SortOrder.self, default: .oldestFirst))")

// A scoped reader prefixes its keys: `upload` reads `app.upload.*`.
let upload = config.scoped(to: "app.upload")
say("upload types (scoped): \(upload.stringArray(forKey: "allowed_types", default: []).count)")

// Not a Switchboard key: the in-memory provider answers.
say("http port: \(config.int(forKey: "http.port", default: 80))")

// One snapshot: both values from the same moment, whatever changes in between.
let snapshot = config.snapshot()
let limit = snapshot.int(forKey: "app.upload.max_mb") ?? 0
say("snapshot: \(limit) MB, dark mode \(snapshot.bool(forKey: "app.dark_mode") ?? true)")

// An object has no swift-configuration type: the read is a type mismatch.
do {
    _ = try config.requiredString(forKey: "app.upload.limits")
} catch {
    say("upload limits: \(error)")
}

if let watched {
    say("watching \(watched)")
    try await config.watchInt(forKey: ConfigKey(watched)) { updates in
        for await value in updates { say("\(watched) = \(value.map(String.init) ?? "-")") }
    }
}
