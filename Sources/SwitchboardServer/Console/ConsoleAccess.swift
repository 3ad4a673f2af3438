import Foundation
import Switchboard

/// What the console tells the page of who is signed in: the name, the role, and why it is read-only when it is.
///
/// The server decides; the page hides or disables what the role cannot do, and every write is checked again by
/// the admin API.
extension Principal {
    /// Whether the console lets this principal change any value.
    var canWriteInConsole: Bool { grant.role >= .write }

    /// Why the console is read-only, with what to do about it; `nil` when it can write.
    func consoleReadOnlyReason(writersConfigured: Bool) -> String? {
        if canWriteInConsole { return nil }
        if !writersConfigured {
            return "Read-only: this server has no admin token and no access file. To allow changes, start it with "
                + "SWITCHBOARD_ADMIN_TOKEN set, with --admin-token-file, or with --access-file."
        }
        return source == .anonymous
            ? "Read-only: signed in without a token. Sign in with a token that may change values."
            : "Read-only: \(name) has the role 'read'. Ask an admin for the role 'write' to change values."
    }

    /// The session document's `user`: the name, role, namespaces (`null`: every key) and how it was verified.
    var consoleJSON: Value {
        [
            "name": .string(name), "role": .string(grant.role.rawValue),
            "namespaces": grant.role == .write ? grant.namespaces.map { .list($0.map(Value.string)) } ?? .null : .null,
            "source": .string(source.rawValue),
            "expiresAt": expiresAt.map { .string(StoredOverride.time(secondsSinceEpoch: $0.timeIntervalSince1970)) } ?? .null,
        ]
    }
}
