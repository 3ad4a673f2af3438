import Switchboard

/// How a `Resolution` reads on the wire in OFREP.
///
/// - `reason` passes through as OpenFeature names it, `DEFAULT` included (flagd sends it although the spec's
///   enum lacks it). `OVERRIDE`, Switchboard's reason for a file, env or runtime override, is sent as
///   `Reason/openFeatureName` names it, `STATIC`, with the winning layer in the flag's metadata as `switchboard.layer` (`file`, `env`, `runtime`).
/// - `variant` is always present, the empty string when the value is no named variant: some clients read it
///   unconditionally.
/// - `value` is left out when the flag defers to the caller's code default (no value) and when it is disabled
///   (ADR 0006). A double is written with a decimal point (`1.0`), so typed clients keep it a float.
/// - A failure has `errorCode` and `errorDetails` and no value. The spec's failure codes are `PARSE_ERROR`,
///   `TARGETING_KEY_MISSING`, `INVALID_CONTEXT` and `GENERAL`; other codes are sent as `GENERAL`.
enum OFREPEncoding {
    /// The metadata key naming the override layer that supplied a value.
    static let layerMetadataKey = "switchboard.layer"

    /// The error code as sent in an evaluation failure.
    static func errorCode(_ code: ErrorCode?) -> String {
        switch code {
        case .parseError, .targetingKeyMissing, .invalidContext, .flagNotFound: code!.rawValue
        case .typeMismatch, .providerNotReady, .general, nil: ErrorCode.general.rawValue
        }
    }

    /// Whether the resolution is a failure rather than a value or a deferral to the code default.
    static func isFailure(_ resolution: Resolution) -> Bool {
        resolution.errorCode != nil || resolution.reason == .error
    }

    /// The readable account of a failure.
    static func errorDetails(key: String, _ resolution: Resolution) -> String {
        if let message = resolution.errorMessage { return message }
        return "flag '\(key)' could not be evaluated"
    }

    /// Appends one flag's evaluation as a JSON object: `evaluationSuccess`, or `evaluationFailure` /
    /// `flagNotFound` when the resolution failed.
    static func writeEvaluation(key: String, _ resolution: Resolution, to out: inout JSONWriter) {
        out.raw("{\"key\":")
        out.string(key)
        if isFailure(resolution) {
            out.raw(",\"errorCode\":")
            out.string(errorCode(resolution.errorCode))
            out.raw(",\"errorDetails\":")
            out.string(errorDetails(key: key, resolution))
            if !resolution.metadata.isEmpty {
                out.raw(",\"metadata\":")
                out.object(resolution.metadata)
            }
            out.raw("}")
            return
        }
        if let value = resolution.value, resolution.reason != .disabled {
            out.raw(",\"value\":")
            out.value(value)
        }
        out.raw(",\"reason\":")
        out.string(resolution.reason.openFeatureName)
        out.raw(",\"variant\":")
        out.string(resolution.variant ?? "")
        out.raw(",\"metadata\":")
        if resolution.reason == .override, let layer = resolution.layer {
            var metadata = resolution.metadata
            metadata[layerMetadataKey] = .string(layer.rawValue)
            out.object(metadata)
        } else if resolution.metadata.isEmpty {
            out.raw("{}")
        } else {
            out.object(resolution.metadata)
        }
        out.raw("}")
    }
}
