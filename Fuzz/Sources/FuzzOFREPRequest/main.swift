import FuzzSupport
import Switchboard

// The fuzz target: reads the input as an OFREP request body, as `switchboard serve` does for one flag and in bulk
// (SwitchboardServer's `OFREPRequest` maps a problem to its 400 and nothing else).
fuzz { bytes in
    do throws(EvaluationContext.RequestBodyProblem) {
        let context = try EvaluationContext(ofrepRequestBody: bytes)
        _ = context.targetingKey
    } catch {
        _ = "\(error.code) \(error.details)"
    }
}
