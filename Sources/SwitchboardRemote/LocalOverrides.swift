import Foundation
import Locking
public import Switchboard

/// Overrides that live on this device only, for in-app debug panels: kept in `local-overrides.json` in the cache
/// directory (in memory when there is none), written as the file store writes its state (a temporary file, synced,
/// renamed over the old one, and the folder synced), and never sent to the server. The file is
/// `{"format":1,"overrides":{"key":{"value":…,"actor":…,"time":…,"expires_at":…}}}` (`expires_at` only for an
/// override that expires; files without it load as before).
final class LocalOverrides: Sendable {
    /// The file, when the board has a cache directory.
    let path: String?
    private let entries: Locked<[String: LocalOverride]>

    /// Reads the file. A file that cannot be read is reported through `problem` and ignored: the server's values
    /// stand, and the next override written replaces it.
    init(directory: String?, problem: (String) -> Void) {
        path = directory.map { $0 + "/local-overrides.json" }
        var loaded: [String: LocalOverride] = [:]
        if let path, let data = FileManager.default.contents(atPath: path) {
            do {
                loaded = try Self.decode(data)
            } catch {
                problem("local overrides file \(path) is unusable (\(error)); ignored, the server's values stand")
            }
        }
        entries = Locked(loaded)
    }

    /// Every override, by key, expired ones included (they stay in the file until set again or reset).
    var all: [String: LocalOverride] { entries.withLock { $0 } }

    /// The overrides that count at `now`: those whose expiry has not come.
    func live(at now: Double) -> [String: LocalOverride] {
        entries.withLock { entries in
            guard entries.values.contains(where: { $0.isExpired(at: now) }) else { return entries }
            return entries.filter { !$0.value.isExpired(at: now) }
        }
    }

    /// The earliest expiry after `now`, if any override has one to come.
    func nextExpiry(after now: Double) -> Double? {
        entries.withLock { $0.values.compactMap(\.expiry).filter { $0 > now }.min() }
    }

    /// Sets or (with `nil`) removes overrides, and writes the file first: when it cannot be written, nothing
    /// changes.
    func apply(_ changes: [String: Value?], actor: String, expiresAt: String? = nil) throws {
        try entries.withLock { entries in
            var next = entries
            let time = Clock.timestamp()
            for (key, value) in changes {
                next[key] = value.map { LocalOverride(value: $0, actor: actor, time: time, expiresAt: expiresAt) }
            }
            try write(next)
            entries = next
        }
    }

    /// Removes every override.
    func removeAll() throws {
        try entries.withLock { entries in
            try write([:])
            entries = [:]
        }
    }

    private func write(_ entries: [String: LocalOverride]) throws {
        guard let path else { return }
        var object: [String: Value] = [:]
        for (key, entry) in entries {
            var fields: [String: Value] = ["value": entry.value, "actor": .string(entry.actor), "time": .string(entry.time)]
            if let expiresAt = entry.expiresAt { fields["expires_at"] = .string(expiresAt) }
            object[key] = .object(fields)
        }
        let json = Value.object(["format": 1, "overrides": .object(object)]).json
        try FileManager.default.createDirectory(atPath: FilePaths.directory(of: path),
                                                withIntermediateDirectories: true)
        // As the file store writes its state: a crash or a kill at any moment leaves the old file or the new one.
        try AtomicFile.write(Array(json.utf8), to: path)
    }

    private struct Unusable: Error, CustomStringConvertible {
        var description: String
    }

    private static func decode(_ data: Data) throws -> [String: LocalOverride] {
        guard case .object(let root) = try Value(jsonBytes: Array(data)), root["format"] == .int(1),
              case .object(let overrides) = root["overrides"] ?? .null
        else { throw Unusable(description: "not a local overrides file") }
        var entries: [String: LocalOverride] = [:]
        for (key, item) in overrides {
            guard case .object(let fields) = item, let value = fields["value"] else {
                throw Unusable(description: "the override of \(key) has no value")
            }
            entries[key] = LocalOverride(value: value, actor: fields["actor"]?.stringValue ?? "",
                                         time: fields["time"]?.stringValue ?? "",
                                         expiresAt: fields["expires_at"]?.stringValue)
        }
        return entries
    }
}

/// Why a device-local override was refused; nothing was written.
public enum LocalOverrideError: Error, Sendable, CustomStringConvertible {
    /// The server's answer has no such key.
    case unknownKey(String, suggestions: [String])
    /// The value is of another type than the server's value for the key, or nests deeper than any value may
    /// (64 lists and objects in one another).
    case invalidValue(key: String, ValueProblem)
    /// The overrides file could not be written.
    case notWritten(String)

    /// A readable account, with a hint.
    public var description: String {
        switch self {
        case .unknownKey(let key, let suggestions):
            let message = Message.unknownKey(key, suggestions: suggestions)
            return message.text + (message.hint.map { "\n  hint: \($0)" } ?? "")
        case .invalidValue(let key, let problem):
            let message = Message.refusedValue(key: key, problem: problem, type: nil)
            return message.text + (message.hint.map { "\n  hint: \($0)" } ?? "")
        case .notWritten(let reason):
            return "the local overrides could not be written: \(reason); nothing was changed"
        }
    }
}

/// One device-local override: the value, who set it and when, and when it stops counting.
struct LocalOverride: Sendable, Equatable {
    var value: Value
    var actor: String
    var time: String
    /// ISO 8601 UTC, as the stores write it; `nil`: never.
    var expiresAt: String?

    /// ``expiresAt`` in seconds since the epoch.
    var expiry: Double? { expiresAt.flatMap(Timestamp.parseZoned) }

    /// Whether it has stopped counting at `now`.
    func isExpired(at now: Double) -> Bool { expiry.map { $0 <= now } ?? false }
}
