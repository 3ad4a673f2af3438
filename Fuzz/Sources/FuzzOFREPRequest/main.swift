import FuzzSupport
import Switchboard
@testable import SwitchboardServer

// The fuzz target: decodes the input as an OFREP request body, for one flag and in bulk.
fuzz { bytes in
    for key in ["app.flag", nil] {
        do {
            let context = try OFREPRequest.context(from: bytes, key: key)
            _ = context.targetingKey
        } catch {
            _ = "\(error)"
        }
    }
}
