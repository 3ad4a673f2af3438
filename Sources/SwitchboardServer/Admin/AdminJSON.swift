import Switchboard

// The admin API's documents are the library's JSON forms — the ones `switchboard list --json`, `explain --json`
// and the REPL print — so a script moves between the command line and the API without relearning shapes. Only
// the list adds each entry's reason, which the command line's table leaves out.

extension Snapshot.KeyState {
    /// A definition with its resolved value, layer and reason, and `expires_at` when the runtime override it serves
    /// expires, for `GET /v1/flags`.
    func adminJSON(resolution: Resolution, expiresAt: String? = nil) -> Value {
        var document = jsonValue(resolution: resolution, expiresAt: expiresAt)
        if case .object(var object) = document {
            object["reason"] = .string(resolution.reason.rawValue)
            document = .object(object)
        }
        return document
    }
}
