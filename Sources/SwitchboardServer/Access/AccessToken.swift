public import Foundation

/// A secret that a request must present: the admin token, or the optional read token of OFREP.
///
/// Comparison takes the same time whatever the candidate holds, so response timing does not reveal how much of
/// a guess was right. The token never appears in logs: its description is redacted.
///
/// ```swift
/// let admin = try AccessToken.load(file: "/run/secrets/switchboard", environmentVariable: "SWITCHBOARD_ADMIN_TOKEN")
/// ```
public struct AccessToken: Sendable, CustomStringConvertible {
    /// Why a token could not be loaded.
    public struct LoadError: Error, Sendable, CustomStringConvertible {
        /// What went wrong, with the path.
        public var description: String
    }

    private let bytes: [UInt8]

    /// A token from text, with surrounding whitespace (a token file's final newline) removed; `nil` when nothing
    /// is left, so an empty variable or file never becomes a token that an empty header would match.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        bytes = Array(trimmed.utf8)
    }

    /// Redacted: tokens stay out of logs.
    public var description: String { "<redacted>" }

    /// Whether `candidate` is this token, in time that depends only on this token's length.
    public func matches(_ candidate: some StringProtocol) -> Bool {
        let other = Array(candidate.utf8)
        // Fold every byte and the length difference into one value instead of returning at the first
        // difference: an early return would let an attacker find the token byte by byte by timing.
        var difference: UInt8 = other.count == bytes.count ? 0 : 1
        for index in bytes.indices {
            difference |= bytes[index] ^ (index < other.count ? other[index] : 0)
        }
        return difference == 0
    }

    /// The token from a file when one is named, else from an environment variable; `nil` when neither has one.
    ///
    /// - Throws: `LoadError` when the file cannot be read or holds only whitespace: a server told to use a
    ///   token file must not start without its token.
    public static func load(
        file: String?, environmentVariable: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(LoadError) -> AccessToken? {
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw LoadError(description: "cannot read the token file \(file)")
            }
            guard let token = AccessToken(String(decoding: data, as: UTF8.self)) else {
                throw LoadError(description: "the token file \(file) is empty")
            }
            return token
        }
        return environment[environmentVariable].flatMap(AccessToken.init)
    }
}
