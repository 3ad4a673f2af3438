// remote-client --url URL [--token T] [--cache DIR] [--context k=v ...] KEY...
//
// Prints `KEY=VALUE (REASON)` for each key once the board is settled, then one such line for every change of one of
// them, until interrupted. With a cache for the context the board is settled at once: offline, the cached values
// are printed straight away (reason CACHED) and replaced when the server answers. Without --url, OFREP_ENDPOINT is
// used (OFREP ADR 0007).
import Foundation
import Switchboard
import SwitchboardRemote

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("remote-client: \(message)\n".utf8))
    exit(2)
}

/// Writes a line at once: unbuffered, so a pipe sees each line as it is printed.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The value after an option.
func value(of option: String, _ arguments: inout ArraySlice<String>) -> String {
    guard let value = arguments.popFirst() else { fail("\(option) needs a value") }
    return value
}

var url: String?
var token: String?
var cache: String?
var context = EvaluationContext()
var keys: [String] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--url": url = value(of: argument, &arguments)
    case "--token": token = value(of: argument, &arguments)
    case "--cache": cache = value(of: argument, &arguments)
    case "--context":
        let pair = value(of: argument, &arguments)
        guard let equals = pair.firstIndex(of: "=") else { fail("--context needs k=v, not '\(pair)'") }
        let name = String(pair[..<equals])
        let value = String(pair[pair.index(after: equals)...])
        if name == "targetingKey" { context.targetingKey = value } else { context.attributes[name] = .string(value) }
    case "-h", "--help":
        say("usage: remote-client --url URL [--token T] [--cache DIR] [--context k=v ...] KEY...")
        exit(0)
    default:
        if argument.hasPrefix("--") { fail("unknown option \(argument)") }
        keys.append(argument)
    }
}
guard !keys.isEmpty else { fail("name at least one KEY") }

let configuration: RemoteConfiguration
do {
    configuration = try RemoteConfiguration(
        baseURL: url, context: context, credentials: token.map(RemoteConfiguration.Credentials.bearer) ?? .none,
        cacheDirectory: cache)
} catch {
    fail(error.description)
}
let board = RemoteBoard(configuration)

/// `KEY=VALUE (REASON)`; a key without a value shows `-` and the error code.
func line(_ key: String) -> String {
    let resolution = board.resolve(key)
    let value: String = switch resolution.value {
    case .string(let text)?: text
    case let other?: other.json
    case nil: "-"
    }
    let reason = resolution.errorCode.map { "\(resolution.reason.rawValue): \($0.rawValue)" }
        ?? resolution.reason.rawValue
    return "\(key)=\(value) (\(reason))"
}

// Subscribed before the first answer, so no change is missed; a line is printed only when it differs from the
// key's last one (the first answer replacing "no value yet" is not a change to report).
let changes = board.changes
await board.waitUntilSettled(timeout: configuration.timeout)
var printed: [String: String] = [:]
for key in keys {
    printed[key] = line(key)
    say(printed[key]!)
}
for await change in changes where printed[change.key] != nil {
    let text = line(change.key)
    if text != printed[change.key] {
        printed[change.key] = text
        say(text)
    }
}
