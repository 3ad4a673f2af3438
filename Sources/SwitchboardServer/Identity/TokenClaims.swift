import Foundation
import JWTKit

/// The claims of an ID token or a JWT bearer, read without knowing their names in advance: which claim holds the
/// name and which the groups is the access file's choice (`name_claim`, `roles.claim`).
///
/// Decoding keeps strings, lists of strings and numbers; other values are dropped. jwt-kit checks the signature
/// before it decodes; ``OIDCSignIn`` checks the claims after, so that each failure has its own reason.
struct TokenClaims: JWTPayload {
    /// Claims whose value is a string.
    var strings: [String: String] = [:]
    /// Claims whose value is a list of strings.
    var lists: [String: [String]] = [:]
    /// Claims whose value is a number (`exp`, `nbf`, `iat`).
    var numbers: [String: Double] = [:]

    /// The issuer (`iss`).
    var issuer: String? { strings["iss"] }
    /// The audiences (`aud`), a string or a list.
    var audiences: [String] { lists["aud"] ?? strings["aud"].map { [$0] } ?? [] }
    /// The end of validity (`exp`).
    var expiresAt: Date? { numbers["exp"].map(Date.init(timeIntervalSince1970:)) }
    /// The start of validity (`nbf`).
    var notBefore: Date? { numbers["nbf"].map(Date.init(timeIntervalSince1970:)) }

    /// A claim as a list of strings: a list, or one string (some providers send a single group as a string).
    func list(_ name: String) -> [String] {
        lists[name] ?? strings[name].map { [$0] } ?? []
    }

    private struct Name: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Name.self)
        for key in container.allKeys {
            if let text = try? container.decode(String.self, forKey: key) {
                strings[key.stringValue] = text
            } else if let number = try? container.decode(Double.self, forKey: key) {
                numbers[key.stringValue] = number
            } else if let list = try? container.decode([String].self, forKey: key) {
                lists[key.stringValue] = list
            }
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Name.self)
        for (name, value) in strings { try container.encode(value, forKey: Name(stringValue: name)) }
        for (name, value) in lists { try container.encode(value, forKey: Name(stringValue: name)) }
        for (name, value) in numbers { try container.encode(value, forKey: Name(stringValue: name)) }
    }

    /// Nothing here: ``OIDCSignIn`` checks `iss`, `aud`, `exp` and `nbf` itself, to tell the refusals apart.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
