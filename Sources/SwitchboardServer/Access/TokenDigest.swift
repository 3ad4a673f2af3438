import Crypto
import Foundation

/// Access-file tokens: new ones, and the SHA-256 the file keeps instead of them.
public enum TokenDigest {
    /// The SHA-256 of a token, as 64 lowercase hexadecimal digits: what `token_sha256` holds.
    public static func sha256(of token: some StringProtocol) -> String {
        SHA256.hash(data: Data(token.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// A new token: `sb_` and 256 random bits from the system's secure generator, in URL-safe base64 (43
    /// characters), so it can sit in a header, a URL or an environment variable without quoting. The prefix lets
    /// secret scanners and people tell a Switchboard token at a glance.
    public static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let base64 = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return "sb_" + base64
    }
}
