package import Foundation

/// What a running server saw clients ask for: the body of `GET /v1/usage`, written by the server and read by
/// `switchboard stale --server`. The one definition of that JSON shape:
///
/// ```json
/// {"since": "2026-11-26T09:00:00.000Z",
///  "keys": [{"key": "checkout.new_flow", "last_evaluated": "2026-11-26T10:12:03.512Z", "evaluations": 412}],
///  "unknown": [{"key": "checkout.new_flwo", "lookups": 3}]}
/// ```
///
/// Times are ISO 8601 UTC with milliseconds, as the audit log writes them.
package struct UsageReport: Codable, Sendable, Hashable {
    /// One defined key: how often and when last the server evaluated it.
    package struct KeyUsage: Codable, Sendable, Hashable {
        /// The definition's key.
        package var key: String
        /// The last evaluation, `nil` when there was none since ``UsageReport/since``.
        package var lastEvaluated: String?
        /// How many evaluations since ``UsageReport/since`` (a bulk evaluation counts one for every flag).
        package var evaluations: Int

        /// Creates a key's usage.
        package init(key: String, lastEvaluated: String?, evaluations: Int) {
            self.key = key
            self.lastEvaluated = lastEvaluated
            self.evaluations = evaluations
        }

        private enum CodingKeys: String, CodingKey {
            case key
            case lastEvaluated = "last_evaluated"
            case evaluations
        }

        /// Encodes `last_evaluated` as `null` when there was none, so every key has the same fields.
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(key, forKey: .key)
            try container.encode(lastEvaluated, forKey: .lastEvaluated)
            try container.encode(evaluations, forKey: .evaluations)
        }
    }

    /// A key clients asked for that no definition has.
    package struct UnknownKey: Codable, Sendable, Hashable {
        /// The key as the client sent it.
        package var key: String
        /// How many lookups since ``UsageReport/since``.
        package var lookups: Int

        /// Creates an unknown key's count.
        package init(key: String, lookups: Int) {
            self.key = key
            self.lookups = lookups
        }
    }

    /// When the server started counting (it keeps the counts in memory, so: when it started).
    package var since: String
    /// Every defined key, in declaration order.
    package var keys: [KeyUsage]
    /// The keys asked for that no file defines, most looked-up first (at most ``unknownKeyLimit``).
    package var unknown: [UnknownKey]

    /// How many unknown keys a server keeps: a client asking for random keys must not grow its memory or its
    /// metrics without bound. Lookups of further keys are not counted.
    package static let unknownKeyLimit = 100

    /// Creates a report.
    package init(since: String, keys: [KeyUsage], unknown: [UnknownKey]) {
        self.since = since
        self.keys = keys
        self.unknown = unknown
    }

    /// The report as the JSON `GET /v1/usage` answers with.
    package var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // A report of plain strings and integers always encodes.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Reads a report from the JSON `GET /v1/usage` answers with.
    package init(json: Data) throws {
        self = try JSONDecoder().decode(UsageReport.self, from: json)
    }

    /// The seconds since the epoch of a time the report gives; `nil` when it is not ISO 8601.
    package static func seconds(of time: String) -> Double? {
        Timestamp.parse(time)
    }
}
