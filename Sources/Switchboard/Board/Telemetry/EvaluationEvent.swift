package import Tracing

/// OpenTelemetry's `feature_flag.evaluation` event: what one evaluation chose, attached to the span that is
/// current where it happened.
///
/// The attributes follow OpenTelemetry's feature-flag semantic conventions and OpenFeature's appendix D:
///
/// | attribute | value |
/// |---|---|
/// | `feature_flag.key` | the key |
/// | `feature_flag.provider.name` | `switchboard` |
/// | `feature_flag.result.reason` | the OpenFeature reason in lower snake case (`static`, `targeting_match`, …) |
/// | `feature_flag.result.variant` | the variant, when the value is one |
/// | `feature_flag.result.value` | the value, only when asked for: values can be large or private |
/// | `error.type` | the OpenFeature error code in lower snake case (`flag_not_found`, `type_mismatch`, …) |
/// | `error.message` | what went wrong, on an error |
///
/// ``Board``'s typed lookups add it when ``BoardOptions/evaluationEvents`` is on; `switchboard serve` adds it for
/// every OFREP evaluation. Both use the tracer in effect (`InstrumentationSystem.tracer`, or a `withTracer`
/// scope), and add nothing when no span is current.
package enum EvaluationEvent {
    /// The event's name.
    package static let name = "feature_flag.evaluation"
    /// The value of `feature_flag.provider.name`.
    package static let providerName = "switchboard"

    /// The span current in this task, when a tracer keeps one; `nil` without a span, at the cost of one task-local
    /// read.
    package static func currentSpan() -> (any Span)? {
        guard let context = InstrumentationContext.current else { return nil }
        return InstrumentationSystem.tracer.activeSpan(identifiedBy: context)
    }

    /// The event's attributes for one evaluation.
    ///
    /// - Parameters:
    ///   - key: the key looked up.
    ///   - resolution: what the board resolved.
    ///   - errorCode: the error to report instead of the resolution's own, such as a type mismatch found when
    ///     the value was converted to the caller's type.
    ///   - includeValue: whether `feature_flag.result.value` is set.
    package static func attributes(
        key: String, resolution: Resolution, errorCode: ErrorCode? = nil, includeValue: Bool
    ) -> SpanAttributes {
        var attributes = SpanAttributes()
        attributes["feature_flag.key"] = key
        attributes["feature_flag.provider.name"] = providerName
        let error = errorCode ?? resolution.errorCode
        let reason = error == nil ? resolution.reason : .error
        attributes["feature_flag.result.reason"] = reason.openFeatureName.lowercased()
        if error == nil, let variant = resolution.variant { attributes["feature_flag.result.variant"] = variant }
        if let error {
            attributes["error.type"] = error.rawValue.lowercased()
            if let message = error == resolution.errorCode ? resolution.errorMessage : nil {
                attributes["error.message"] = message
            }
        } else if includeValue, let value = resolution.value {
            attributes["feature_flag.result.value"] = spanAttribute(value)
        }
        return attributes
    }

    /// Adds the event for one evaluation to `span`.
    package static func record(
        key: String, resolution: Resolution, errorCode: ErrorCode? = nil, includeValue: Bool, on span: any Span
    ) {
        span.addEvent(SpanEvent(name: name, attributes: attributes(
            key: key, resolution: resolution, errorCode: errorCode, includeValue: includeValue)))
    }

    /// A value as a span attribute: scalars as themselves, lists of one scalar type as arrays, anything else as
    /// its JSON text.
    static func spanAttribute(_ value: Value) -> SpanAttribute {
        switch value {
        case .bool(let bool): return .bool(bool)
        case .int(let int): return .int64(Int64(int))
        case .double(let double): return .double(double)
        case .string(let string): return .string(string)
        case .list(let items):
            if let strings = items.allAs(\.stringValue) { return .stringArray(strings) }
            if let bools = items.allAs(\.boolValue) { return .boolArray(bools) }
            if let ints = items.allAs(\.intValue) { return .int64Array(ints.map(Int64.init)) }
            if let doubles = items.allAs(\.doubleValue) { return .doubleArray(doubles) }
            return .string(value.json)
        default:
            return .string(value.json)
        }
    }
}

extension [Value] {
    /// Every element through `convert`, or `nil` when one does not convert.
    fileprivate func allAs<T>(_ convert: (Value) -> T?) -> [T]? {
        var out: [T] = []
        out.reserveCapacity(count)
        for item in self {
            guard let converted = convert(item) else { return nil }
            out.append(converted)
        }
        return out.isEmpty ? nil : out
    }
}
