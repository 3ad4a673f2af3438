import FuzzSupport
import Switchboard

// The fuzz target: reads the input as JSON. What reads must write JSON that reads back, and writing that
// again must give the same text (the writer is what the server and the CLI answer with).
fuzz { bytes in
    guard let value = try? Value(jsonBytes: bytes) else { return }
    let written = value.json
    guard let again = try? Value(json: written) else {
        fatalError("Value(jsonBytes:) cannot read its own output: \(written)")
    }
    precondition(again.json == written, "writing is not stable: \(written) then \(again.json)")
}
