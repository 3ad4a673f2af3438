import Foundation
import Switchboard

/// The last good bulk answer on disk, one file per base URL and context, written atomically (a temporary file
/// renamed over the old one), so a crash mid-write leaves the previous answer.
///
/// The file is `{"format":1,"baseURL":…,"context":…,"etag":…,"response":<the bulk body as received>}`; its name
/// is `ofrep-<digest of base URL and context>.json`. The base URL and context inside are checked on reading, so a
/// digest collision cannot serve another context's values.
struct RemoteCache: Sendable {
    /// The folder.
    let directory: String

    /// What a cache file holds.
    struct CachedAnswer: Sendable {
        var evaluation: BulkEvaluation
        var etag: String?
    }

    /// Why a cache file was not used.
    struct Corrupt: Error, Sendable, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "cache file \(path) is unusable (\(reason)); ignored" }
    }

    /// The file for a base URL and context.
    func path(baseURL: String, context: EvaluationContext) -> String {
        let name = "ofrep-" + CanonicalJSON.digest(baseURL + "\n" + CanonicalJSON.requestBody(context)) + ".json"
        return directory + "/" + name
    }

    /// Reads the entry for a base URL and context: `nil` when there is none.
    ///
    /// - Throws: ``Corrupt`` when the file exists but cannot be used.
    func load(baseURL: String, context: EvaluationContext) throws(Corrupt) -> CachedAnswer? {
        let path = path(baseURL: baseURL, context: context)
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let root: Value
        do {
            root = try Value(jsonBytes: Array(data))
        } catch {
            throw Corrupt(path: path, reason: "not JSON: \(error)")
        }
        guard case .object(let object) = root, object["format"] == .int(1),
              object["baseURL"]?.stringValue == baseURL,
              object["context"]?.stringValue == CanonicalJSON.requestBody(context),
              let response = object["response"]
        else {
            throw Corrupt(path: path, reason: "not a Switchboard cache file for this URL and context")
        }
        do {
            let evaluation = try BulkEvaluation.decode(response, baseURL: baseURL)
            return CachedAnswer(evaluation: evaluation, etag: object["etag"]?.stringValue)
        } catch {
            throw Corrupt(path: path, reason: error.description)
        }
    }

    /// Writes the entry for a base URL and context; the body must be the validated bulk response.
    func store(baseURL: String, context: EvaluationContext, body: [UInt8], etag: String?) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var head = "{\"format\":1,\"baseURL\":"
        Value.writeJSONString(baseURL, to: &head)
        head += ",\"context\":"
        Value.writeJSONString(CanonicalJSON.requestBody(context), to: &head)
        if let etag {
            head += ",\"etag\":"
            Value.writeJSONString(etag, to: &head)
        }
        head += ",\"response\":"
        var bytes = Array(head.utf8)
        bytes += body
        bytes.append(UInt8(ascii: "}"))
        try Data(bytes).write(to: URL(fileURLWithPath: path(baseURL: baseURL, context: context)), options: .atomic)
    }
}
