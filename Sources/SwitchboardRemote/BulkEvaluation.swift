import Foundation
import Switchboard

/// One flag of a bulk evaluation as the server sent it.
struct RemoteFlag: Sendable, Hashable {
    /// The value; `nil` when the server deferred to the caller's default or the evaluation failed.
    var value: Value?
    /// The variant's name, when the server named one.
    var variant: String?
    /// The reason as sent (`STATIC`, `TARGETING_MATCH`, …).
    var reason: String?
    /// The per-flag error code as sent (`FLAG_NOT_FOUND`, `TYPE_MISMATCH`, …).
    var errorCode: String?
    /// The per-flag error's account.
    var errorDetails: String?
    /// The flag's metadata.
    var metadata: [String: Value]
}

/// A bulk evaluation response (`POST /ofrep/v1/evaluate/flags`) read strictly enough that garbage is refused and
/// loosely enough that any OFREP server's extra fields pass.
struct BulkEvaluation: Sendable, Hashable {
    /// The flags by key.
    var flags: [String: RemoteFlag]
    /// The SSE endpoints the server advertised, as absolute URLs.
    var eventStreams: [String]
    /// The server's `inactivityDelaySec`, when it sent one.
    var inactivityDelaySeconds: Int?

    /// Why a body is not a bulk evaluation.
    struct Invalid: Error, Sendable, CustomStringConvertible {
        /// What is wrong.
        var description: String
    }

    /// Reads a body; `baseURL` resolves an `endpoint` without `origin`.
    static func decode(_ body: [UInt8], baseURL: String) throws(Invalid) -> BulkEvaluation {
        let root: Value
        do {
            root = try Value(jsonBytes: body)
        } catch {
            throw Invalid(description: "the body is not JSON: \(error)")
        }
        return try decode(root, baseURL: baseURL)
    }

    /// Reads a parsed body.
    static func decode(_ root: Value, baseURL: String) throws(Invalid) -> BulkEvaluation {
        guard case .object(let object) = root else { throw Invalid(description: "the body is not a JSON object") }
        guard case .list(let list)? = object["flags"] else {
            throw Invalid(description: "the body has no \"flags\" array")
        }
        var flags: [String: RemoteFlag] = [:]
        for (index, item) in list.enumerated() {
            guard case .object(let entry) = item, case .string(let key)? = entry["key"] else {
                throw Invalid(description: "flags[\(index)] is not an object with a string \"key\"")
            }
            var flag = RemoteFlag(value: entry["value"], metadata: entry["metadata"]?.objectValue ?? [:])
            if flag.value == .null { flag.value = nil }
            // Switchboard's server writes "" for a value that is no named variant (some clients need the field);
            // that is no variant, as a local board says.
            flag.variant = entry["variant"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            flag.reason = entry["reason"]?.stringValue
            flag.errorCode = entry["errorCode"]?.stringValue
            flag.errorDetails = entry["errorDetails"]?.stringValue
            if flag.errorCode != nil { flag.value = nil }
            flags[key] = flag
        }
        var streams: [String] = []
        var inactivity: Int?
        if case .list(let entries)? = object["eventStreams"] {
            for case .object(let entry) in entries where entry["type"]?.stringValue == "sse" {
                if let url = entry["url"]?.stringValue {
                    streams.append(url)
                } else if case .object(let endpoint)? = entry["endpoint"],
                          let requestURI = endpoint["requestUri"]?.stringValue {
                    let origin = endpoint["origin"]?.stringValue ?? Self.origin(of: baseURL)
                    streams.append(Self.trimmingSlash(origin) + (requestURI.hasPrefix("/") ? "" : "/") + requestURI)
                } else {
                    continue
                }
                if let seconds = entry["inactivityDelaySec"]?.intValue, seconds >= 1 { inactivity = seconds }
            }
        }
        return BulkEvaluation(flags: flags, eventStreams: streams, inactivityDelaySeconds: inactivity)
    }

    /// `scheme://host[:port]` of a URL.
    static func origin(of url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return trimmingSlash(url) }
        let rest = url[schemeEnd.upperBound...]
        let hostEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        return String(url[..<hostEnd])
    }

    static func trimmingSlash(_ url: String) -> String {
        var url = Substring(url)
        while url.hasSuffix("/") { url = url.dropLast() }
        return String(url)
    }
}

/// Canonical JSON for contexts: object keys sorted, so the same context always gives the same bytes (the cache
/// file's name and the request body both depend on it).
enum CanonicalJSON {
    /// The OFREP request body for a context: `{"context":{…,"targetingKey":…}}`.
    static func requestBody(_ context: EvaluationContext) -> String {
        var attributes = context.attributes
        if let targetingKey = context.targetingKey { attributes["targetingKey"] = .string(targetingKey) }
        var out = "{\"context\":"
        write(.object(attributes), to: &out)
        out += "}"
        return out
    }

    /// Appends a value with sorted object keys.
    static func write(_ value: Value, to out: inout String) {
        switch value {
        case .list(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                write(item, to: &out)
            }
            out += "]"
        case .object(let object):
            out += "{"
            for (index, key) in object.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                Value.writeJSONString(key, to: &out)
                out += ":"
                write(object[key]!, to: &out)
            }
            out += "}"
        default:
            value.writeJSON(to: &out)
        }
    }

    /// A 64-bit FNV-1a digest of a string, in 16 hex digits.
    static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
