import Switchboard

/// What a person may do on a server: read, write keys in some namespaces, or everything.
///
/// Roles are ordered: `read` < `write` < `admin`. Where several grants apply to one person (several groups of an
/// identity provider), the highest role wins and the namespaces are united (``Grant/merged(with:)``).
public enum Role: String, Sendable, Hashable, Comparable, CaseIterable {
    /// OFREP, the console and the admin API's `GET` routes.
    case read
    /// Also set, reset and revert keys in the grant's namespaces.
    case write
    /// Everything, `reset --all` included.
    case admin

    /// The order read < write < admin.
    public static func < (lhs: Role, rhs: Role) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// A role and, for writers, the namespaces they may write.
///
/// A namespace is a whole-segment key prefix: `checkout` covers `checkout.new_flow` and `checkout` itself, not
/// `checkouts.x`.
public struct Grant: Sendable, Hashable, CustomStringConvertible {
    /// What the holder may do.
    public var role: Role
    /// The namespaces a `write` grant may write; `nil`: every key. Ignored for `read` and `admin`.
    public var namespaces: [String]?

    /// Creates a grant.
    public init(role: Role, namespaces: [String]? = nil) {
        self.role = role
        self.namespaces = namespaces
    }

    /// Whether the holder may set, reset or revert `key`.
    public func mayWrite(_ key: String) -> Bool {
        switch role {
        case .read: return false
        case .admin: return true
        case .write:
            guard let namespaces else { return true }
            return namespaces.contains { KeySyntax.namespace($0, covers: key) }
        }
    }

    /// Why the holder may not write `key`, in one sentence; `nil` when it may.
    public func refusal(toWrite key: String) -> String? {
        guard !mayWrite(key) else { return nil }
        if role == .read { return "the role 'read' may not change values" }
        let list = (namespaces ?? []).map { "'\($0)'" }.joined(separator: ", ")
        return "'\(key)' is outside the namespaces this role may write (\(list))"
    }

    /// The grant of someone who holds both: the higher role, and the namespaces of both (every key when either
    /// writer's grant covers every key).
    public func merged(with other: Grant) -> Grant {
        let role = max(role, other.role)
        guard role == .write else { return Grant(role: role) }
        let writers = [self, other].filter { $0.role == .write }
        if writers.contains(where: { $0.namespaces == nil }) { return Grant(role: .write) }
        var united: [String] = []
        for namespace in writers.flatMap({ $0.namespaces ?? [] }) where !united.contains(namespace) {
            united.append(namespace)
        }
        return Grant(role: .write, namespaces: united)
    }

    /// `admin`, `read`, `write` or `write in checkout, app`.
    public var description: String {
        guard role == .write, let namespaces else { return role.rawValue }
        return "write in " + namespaces.joined(separator: ", ")
    }
}
