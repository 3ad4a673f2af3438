import NIOCore
import Switchboard
@testable import SwitchboardServer
import Testing

/// Each row: a resolution, and the exact JSON a strict OFREP client receives for it.
@Suite struct OFREPEncodingTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var resolution: Resolution
        var json: String
        var testDescription: String { name }

        init(_ name: String, _ resolution: Resolution, _ json: String) {
            self.name = name
            self.resolution = resolution
            self.json = json
        }
    }

    static let rows: [Row] = [
        Row("a static value, with its variant",
            Resolution(value: "blue", variant: "control", reason: .static, layer: .default),
         #"{"key":"k","value":"blue","reason":"STATIC","variant":"control","metadata":{}}"#),
        Row("no variant is an empty string", Resolution(value: true, reason: .static, layer: .default),
         #"{"key":"k","value":true,"reason":"STATIC","variant":"","metadata":{}}"#),
        Row("a double keeps its decimal point", Resolution(value: .double(1), reason: .static),
         #"{"key":"k","value":1.0,"reason":"STATIC","variant":"","metadata":{}}"#),
        Row("an int stays an int", Resolution(value: 10, reason: .static),
         #"{"key":"k","value":10,"reason":"STATIC","variant":"","metadata":{}}"#),
        Row("an object", Resolution(value: ["b": 1, "a": [true]], reason: .static),
         #"{"key":"k","value":{"a":[true],"b":1},"reason":"STATIC","variant":"","metadata":{}}"#),
        Row("an override is STATIC with its layer", Resolution(value: 100, reason: .override, layer: .runtime),
         #"{"key":"k","value":100,"reason":"STATIC","variant":"","metadata":{"switchboard.layer":"runtime"}}"#),
        Row("DEFAULT passes through", Resolution(value: "x", variant: "v", reason: .default),
         #"{"key":"k","value":"x","reason":"DEFAULT","variant":"v","metadata":{}}"#),
        Row("targeting", Resolution(value: "x", variant: "v", reason: .targetingMatch, metadata: ["team": "a"]),
         #"{"key":"k","value":"x","reason":"TARGETING_MATCH","variant":"v","metadata":{"team":"a"}}"#),
        Row("a disabled flag has no value", Resolution(value: true, variant: "on", reason: .disabled),
         #"{"key":"k","reason":"DISABLED","variant":"on","metadata":{}}"#),
        Row("a code default has no value", Resolution(value: nil, reason: .default),
         #"{"key":"k","reason":"DEFAULT","variant":"","metadata":{}}"#),
        Row("a failure", Resolution.failure(.parseError, "bad rule"),
         #"{"key":"k","errorCode":"PARSE_ERROR","errorDetails":"bad rule"}"#),
        Row("a code outside the spec's list is GENERAL", Resolution.failure(.typeMismatch, "no"),
         #"{"key":"k","errorCode":"GENERAL","errorDetails":"no"}"#),
        Row("not found", Resolution.failure(.flagNotFound, "no definition has the key k"),
         #"{"key":"k","errorCode":"FLAG_NOT_FOUND","errorDetails":"no definition has the key k"}"#),
        Row("an error without a message still has errorDetails", Resolution(value: nil, reason: .error),
         #"{"key":"k","errorCode":"GENERAL","errorDetails":"flag 'k' could not be evaluated"}"#),
    ]

    @Test(arguments: rows)
    func encodes(_ row: Row) {
        var out = JSONWriter(capacity: 64)
        OFREPEncoding.writeEvaluation(key: "k", row.resolution, to: &out)
        #expect(String(buffer: out.buffer) == row.json, "\(row.name)")
    }
}
