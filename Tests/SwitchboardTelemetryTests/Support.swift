import Tracing

extension SpanAttributes {
    /// Every attribute as text, to compare with a literal.
    var flattened: [String: String] {
        var out: [String: String] = [:]
        forEach { key, attribute in
            out[key] = switch attribute {
            case .string(let string): string
            case .int64(let int): "\(int)"
            case .int32(let int): "\(int)"
            case .double(let double): "\(double)"
            case .bool(let bool): "\(bool)"
            default: "\(attribute)"
            }
        }
        return out
    }
}

extension SpanEvent {
    /// The event's attributes as text.
    var flattened: [String: String] { attributes.flattened }
}
