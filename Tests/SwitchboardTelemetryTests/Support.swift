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

/// The definitions most tests here use: a flag and a bounded preference.
let shopDefinitions = """
    namespace: shop
    flags:
      banner:
        type: bool
        default: false
    preferences:
      page_size:
        type: int
        default: 20
        min: 1
        max: 100
    """
