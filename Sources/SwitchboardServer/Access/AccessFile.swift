public import Foundation
public import Switchboard
public import YAML

/// The access file: who may use a server, with which token, and in which role; and, optionally, sign-in through
/// the team's identity provider.
///
/// ```yaml
/// people:
///   - name: ana
///     token_sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
///     role: admin                    # read | write | admin
///   - name: payments-bot
///     token_sha256: 60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752
///     role: write
///     namespaces: [checkout]         # write only keys in these namespaces; no list: every key
/// anonymous_read: false              # true: OFREP answers without a token
/// oidc:
///   issuer: https://idp.example.com
///   audience: switchboard
///   name_claim: email
///   roles:
///     claim: groups
///     map:
///       flag-admins: { role: admin }
///       payments: { role: write, namespaces: [checkout] }
/// ```
///
/// Tokens are never stored: `switchboard access add` prints a new token once and writes its SHA-256.
/// ``parse(_:file:)`` reports every mistake as a `Diagnostic` at `file:line:column` with a hint.
public struct AccessFile: Sendable, Hashable {
    /// One person (or bot) and the hash of their token.
    public struct Person: Sendable, Hashable {
        /// The name the audit records.
        public var name: String
        /// The token's SHA-256, 64 lowercase hexadecimal digits.
        public var tokenSHA256: String
        /// What the person may do.
        public var grant: Grant
        /// Where the entry starts in the file (`nil` for one made in code).
        public var location: SourceLocation?

        /// Creates a person.
        public init(name: String, tokenSHA256: String, grant: Grant, location: SourceLocation? = nil) {
            self.name = name
            self.tokenSHA256 = tokenSHA256
            self.grant = grant
            self.location = location
        }
    }

    /// Everyone with a token, in file order.
    public var people: [Person]
    /// Whether OFREP answers requests without a token. The console and the admin API always need one.
    public var anonymousRead: Bool
    /// Sign-in through an identity provider, when configured.
    public var oidc: OIDCSettings?

    /// Creates an access file's contents.
    public init(people: [Person] = [], anonymousRead: Bool = false, oidc: OIDCSettings? = nil) {
        self.people = people
        self.anonymousRead = anonymousRead
        self.oidc = oidc
    }

    /// Names no person may take: the built-in people and the anonymous reader.
    public static let reservedNames: Set<String> = [Principal.adminTokenName, Principal.readTokenName, "anonymous"]

    /// Why `access add` refuses `name`, with a hint; `nil` when it takes it: none of the ``reservedNames``, and a
    /// name the audit log shows as it is (``PersonName/problem(_:)``).
    static func nameProblem(_ name: String) -> (text: String, hint: String)? {
        if reservedNames.contains(name) { return reservedName(name) }
        return PersonName.problem(name).map { (text: $0, hint: nameHint) }
    }

    /// Why a built-in name cannot be a person's.
    static func reservedName(_ name: String) -> (text: String, hint: String) {
        (text: "'\(name)' is a built-in name",
         hint: "choose another; 'admin-token' and 'read-token' are the server's own tokens")
    }

    /// Names that read as themselves.
    static let nameHint = "for example `ana`, `Zoë Ngata` or `payments-bot`"

    /// The fields of the file's top level.
    static let topFields = ["people", "anonymous_read", "oidc"]
    /// The fields of a person.
    static let personFields = ["name", "token_sha256", "role", "namespaces"]

    /// Why an access file cannot be used: its diagnostics, errors first in file order.
    public struct Invalid: Error, Sendable, CustomStringConvertible {
        /// Everything wrong with it (warnings included).
        public var diagnostics: [Diagnostic]
        /// Every diagnostic, one per line.
        public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
    }

    /// Reads an access file from disk.
    ///
    /// - Throws: ``Invalid`` when it cannot be read or has an error.
    public static func load(path: String) throws(Invalid) -> (file: AccessFile, warnings: [Diagnostic]) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Invalid(diagnostics: [.error(at: nil, "cannot read the access file \(path)",
                                               hint: "create one with `switchboard access add NAME --role read "
                                                   + "--access-file \(path)`, or check the path")])
        }
        return try parse([UInt8](data), file: path)
    }

    /// Reads an access file's bytes.
    ///
    /// - Returns: the contents and any warnings.
    /// - Throws: ``Invalid`` with every diagnostic when there is an error.
    public static func parse(_ bytes: [UInt8], file: String) throws(Invalid) -> (file: AccessFile, warnings: [Diagnostic]) {
        try parse(YAMLParser.parse(bytes, file: file), file: file)
    }

    /// Reads an access file already parsed as YAML (the editor keeps the document for its node positions).
    static func parse(_ document: YAMLDocument, file: String) throws(Invalid) -> (file: AccessFile, warnings: [Diagnostic]) {
        var reader = AccessFileReader()
        let contents = reader.read(document, file: file)
        let diagnostics = Diagnostic.sorted(reader.diagnostics)
        if diagnostics.contains(where: \.isError) { throw Invalid(diagnostics: diagnostics) }
        return (contents, diagnostics)
    }

    /// The person whose token has this SHA-256.
    public func person(withTokenSHA256 hash: String) -> Person? {
        people.first { $0.tokenSHA256 == hash }
    }
}

/// Sign-in through an OpenID Connect identity provider: who issues tokens, for whom, and how its groups map to
/// roles.
public struct OIDCSettings: Sendable, Hashable {
    /// The issuer's URL: `https`, or `http` on a loopback address (a local or test identity provider).
    public var issuer: URL
    /// The `aud` an ID token or JWT must carry; also the OAuth client id unless ``clientID`` says otherwise.
    public var audience: String
    /// The OAuth client id the console signs in as (default: the audience).
    public var clientID: String
    /// The file holding the OAuth client secret, for a provider that wants a confidential client (PKCE is always
    /// used); `nil`: a public client.
    public var clientSecretFile: String?
    /// The claim whose value is the verified name (default `email`).
    public var nameClaim: String
    /// The claim holding the person's groups (default `groups`).
    public var rolesClaim: String
    /// The grant of each group.
    public var roleMap: [String: Grant]
    /// Where the file says this is.
    public var location: SourceLocation?

    /// Creates settings.
    public init(
        issuer: URL, audience: String, clientID: String? = nil, clientSecretFile: String? = nil,
        nameClaim: String = "email", rolesClaim: String = "groups", roleMap: [String: Grant] = [:],
        location: SourceLocation? = nil
    ) {
        self.issuer = issuer
        self.audience = audience
        self.clientID = clientID ?? audience
        self.clientSecretFile = clientSecretFile
        self.nameClaim = nameClaim
        self.rolesClaim = rolesClaim
        self.roleMap = roleMap
        self.location = location
    }

    /// The grant of someone in `groups`: the highest mapped role, with the namespaces of every matching writer
    /// group united; `nil` when no group is mapped.
    public func grant(forGroups groups: [String]) -> Grant? {
        groups.compactMap { roleMap[$0] }.reduce(nil) { merged, grant in merged?.merged(with: grant) ?? grant }
    }

    /// Whether an issuer URL may be used: https, or http on a loopback host.
    public static func isAcceptable(issuer: URL) -> Bool {
        switch issuer.scheme?.lowercased() {
        case "https": return issuer.host != nil
        case "http": return ["127.0.0.1", "localhost", "::1", "[::1]"].contains(issuer.host?.lowercased() ?? "")
        default: return false
        }
    }

    /// The fields of `oidc:`.
    static let fields = ["issuer", "audience", "client_id", "client_secret_file", "name_claim", "roles"]
}

/// Reads an access file's YAML into ``AccessFile``, collecting diagnostics.
struct AccessFileReader {
    var diagnostics: [Diagnostic] = []
    /// Fields an unknown field's hint already named (`rol` → `role`): not reported missing as well.
    private var suggested: Set<String> = []

    mutating func read(_ document: YAMLDocument, file: String) -> AccessFile {
        diagnostics.append(contentsOf: document.problems.map(Diagnostic.init))
        var contents = AccessFile()
        guard let root = document.root else { return contents }
        guard let pairs = root.pairs else {
            if case .scalar(let scalar) = root.content, case .null = scalar.value { return contents }
            error(root, "expected a mapping with `people:`, found \(root.kindDescription)",
                  hint: "start the file with `people:`; `switchboard access add` writes one")
            return contents
        }
        for pair in pairs {
            let name = pair.key.scalar?.text ?? ""
            switch name {
            case "people": contents.people = people(pair.value)
            case "anonymous_read": contents.anonymousRead = bool(pair.value, field: "anonymous_read") ?? false
            case "oidc": contents.oidc = oidc(pair.value, file: file)
            default: unknown(pair.key, name, known: AccessFile.topFields, in: "an access file")
            }
        }
        return contents
    }

    private mutating func people(_ node: Node) -> [AccessFile.Person] {
        if isNull(node) { return [] }
        guard let items = node.items else {
            error(node, "`people` must be a list of people, found \(node.kindDescription)",
                  hint: "write each person as `- name: ana` with `token_sha256:` and `role:` below it")
            return []
        }
        var people: [AccessFile.Person] = []
        var names: [String: SourceLocation] = [:]
        var hashes: [String: String] = [:]
        for item in items {
            guard let person = person(item) else { continue }
            if let earlier = names[person.name] {
                error(item, "'\(person.name)' is in the access file twice",
                      hint: "the first is at \(earlier); names are unique, since the audit records them")
                continue
            }
            if let other = hashes[person.tokenSHA256] {
                error(item, "'\(person.name)' has the same token as '\(other)'",
                      hint: "give each person a token of their own with `switchboard access add`")
                continue
            }
            names[person.name] = item.location
            hashes[person.tokenSHA256] = person.name
            people.append(person)
        }
        return people
    }

    private mutating func person(_ node: Node) -> AccessFile.Person? {
        guard let pairs = node.pairs else {
            error(node, "expected a person (a mapping with name, token_sha256 and role), found \(node.kindDescription)")
            return nil
        }
        var name: String?
        var hash: String?
        var role: Role?
        var namespaces: [String]?
        var namespacesNode: Node?
        for pair in pairs {
            let field = pair.key.scalar?.text ?? ""
            switch field {
            case "name":
                name = text(pair.value, field: "name")
                if let given = name, AccessFile.reservedNames.contains(given) {
                    let problem = AccessFile.reservedName(given)
                    error(pair.value, problem.text, hint: problem.hint)
                    name = nil
                } else if let given = name, let problem = PersonName.problem(given) {
                    // A warning, not an error: files written before the rule must keep their server running (and
                    // `access revoke` working). The log quotes such a name.
                    diagnostics.append(.warning(at: pair.value.location, problem,
                                                hint: "revoke '\(given)' and add them again under a name such as "
                                                    + "`ana`: the audit log shows this one quoted"))
                }
            case "token_sha256":
                guard let text = text(pair.value, field: "token_sha256") else { continue }
                let lowered = text.lowercased()
                guard lowered.count == 64, lowered.allSatisfy(\.isHexDigit) else {
                    error(pair.value, "token_sha256 must be 64 hexadecimal digits, the SHA-256 of the token",
                          hint: "`switchboard access add` writes it; never put the token itself in this file")
                    continue
                }
                hash = lowered
            case "role":
                role = self.role(pair.value)
            case "namespaces":
                namespaces = self.namespaces(pair.value)
                namespacesNode = pair.value
            default:
                unknown(pair.key, field, known: AccessFile.personFields, in: "a person")
            }
        }
        guard let name else {
            if !pairs.contains(where: { $0.key.scalar?.text == "name" }), !suggested.contains("name") {
                error(node, "a person needs a name", hint: "add `name: NAME`; the audit records it")
            }
            return nil
        }
        guard let hash else {
            if !pairs.contains(where: { $0.key.scalar?.text == "token_sha256" }), !suggested.contains("token_sha256") {
                error(node, "'\(name)' has no token_sha256",
                      hint: "create the person with `switchboard access add \(name) --role read`, which writes it")
            }
            return nil
        }
        guard let role else {
            if !pairs.contains(where: { $0.key.scalar?.text == "role" }), !suggested.contains("role") {
                error(node, "'\(name)' has no role", hint: "add `role: read`, `role: write` or `role: admin`")
            }
            return nil
        }
        if let namespacesNode, namespaces != nil, role != .write {
            diagnostics.append(.warning(at: namespacesNode.location,
                                        "namespaces limit writers only; '\(name)' has the role '\(role.rawValue)'",
                                        hint: "remove `namespaces`, or make the role `write`"))
        }
        return AccessFile.Person(name: name, tokenSHA256: hash, grant: Grant(role: role, namespaces: namespaces),
                                 location: node.location)
    }

    private mutating func oidc(_ node: Node, file: String) -> OIDCSettings? {
        if isNull(node) { return nil }
        guard let pairs = node.pairs else {
            error(node, "`oidc` must be a mapping with issuer and audience, found \(node.kindDescription)")
            return nil
        }
        var issuer: URL?
        var audience: String?
        var clientID: String?
        var secretFile: String?
        var nameClaim = "email"
        var rolesClaim = "groups"
        var map: [String: Grant] = [:]
        for pair in pairs {
            let field = pair.key.scalar?.text ?? ""
            switch field {
            case "issuer":
                guard let text = text(pair.value, field: "issuer") else { continue }
                guard let url = URL(string: text), OIDCSettings.isAcceptable(issuer: url) else {
                    error(pair.value, "the issuer must be an https URL (http only on a loopback address), not '\(text)'",
                          hint: "write the URL your identity provider calls its issuer, such as https://idp.example.com")
                    continue
                }
                issuer = url
            case "audience": audience = text(pair.value, field: "audience")
            case "client_id": clientID = text(pair.value, field: "client_id")
            case "client_secret_file": secretFile = text(pair.value, field: "client_secret_file")
            case "name_claim": nameClaim = text(pair.value, field: "name_claim") ?? nameClaim
            case "roles":
                guard let roles = pair.value.pairs else {
                    error(pair.value, "`roles` must be a mapping with `claim:` and `map:`, found \(pair.value.kindDescription)")
                    continue
                }
                for entry in roles {
                    let name = entry.key.scalar?.text ?? ""
                    switch name {
                    case "claim": rolesClaim = text(entry.value, field: "claim") ?? rolesClaim
                    case "map": map = roleMap(entry.value)
                    default: unknown(entry.key, name, known: ["claim", "map"], in: "`roles`")
                    }
                }
            default:
                unknown(pair.key, field, known: OIDCSettings.fields, in: "`oidc`")
            }
        }
        if issuer == nil, !pairs.contains(where: { $0.key.scalar?.text == "issuer" }) {
            error(node, "`oidc` needs an issuer", hint: "add `issuer: https://idp.example.com`")
        }
        if audience == nil, !pairs.contains(where: { $0.key.scalar?.text == "audience" }) {
            error(node, "`oidc` needs an audience",
                  hint: "add `audience:` with the client id your identity provider gave Switchboard")
        }
        guard let issuer, let audience else { return nil }
        return OIDCSettings(issuer: issuer, audience: audience, clientID: clientID, clientSecretFile: secretFile,
                            nameClaim: nameClaim, rolesClaim: rolesClaim, roleMap: map, location: node.location)
    }

    private mutating func roleMap(_ node: Node) -> [String: Grant] {
        guard let pairs = node.pairs else {
            error(node, "`map` must map group names to roles, found \(node.kindDescription)",
                  hint: "for example `flag-admins: { role: admin }`")
            return [:]
        }
        var map: [String: Grant] = [:]
        for pair in pairs {
            guard let group = pair.key.scalar?.text, !group.isEmpty else {
                error(pair.key, "expected a group name, found \(pair.key.kindDescription)")
                continue
            }
            guard let fields = pair.value.pairs else {
                error(pair.value, "the group '\(group)' must map to `{ role: ROLE }`, found \(pair.value.kindDescription)",
                      hint: "for example `\(group): { role: write, namespaces: [checkout] }`")
                continue
            }
            var role: Role?
            var namespaces: [String]?
            for field in fields {
                let name = field.key.scalar?.text ?? ""
                switch name {
                case "role": role = self.role(field.value)
                case "namespaces": namespaces = self.namespaces(field.value)
                default: unknown(field.key, name, known: ["role", "namespaces"], in: "a group's grant")
                }
            }
            guard let role else {
                if !fields.contains(where: { $0.key.scalar?.text == "role" }) {
                    error(pair.value, "the group '\(group)' has no role", hint: "add `role: read`, `write` or `admin`")
                }
                continue
            }
            map[group] = Grant(role: role, namespaces: namespaces)
        }
        return map
    }

    private mutating func role(_ node: Node) -> Role? {
        guard let text = text(node, field: "role") else { return nil }
        guard let role = Role(rawValue: text) else {
            let hint = Suggestions.nearest(to: text, in: Role.allCases.map(\.rawValue)).map(Message.didYouMean(one:))
                ?? "a role is read, write or admin"
            error(node, "unknown role '\(text)'", hint: hint)
            return nil
        }
        return role
    }

    private mutating func namespaces(_ node: Node) -> [String]? {
        let list: [Node]
        if let items = node.items {
            list = items
        } else if node.scalar != nil, !isNull(node) {
            list = [node]
        } else {
            error(node, "`namespaces` must be a list of key prefixes, found \(node.kindDescription)",
                  hint: "for example `namespaces: [checkout, app]`")
            return nil
        }
        guard !list.isEmpty else {
            error(node, "an empty `namespaces` list lets the person write nothing",
                  hint: "name the namespaces, or remove `namespaces` to allow every key")
            return nil
        }
        var namespaces: [String] = []
        for item in list {
            guard let text = text(item, field: "a namespace") else { continue }
            guard KeySyntax.isValid(text) else {
                error(item, "'\(text)' is not a namespace: a namespace is a key prefix such as `checkout`",
                      hint: KeySyntax.hint(for: text))
                continue
            }
            namespaces.append(text)
        }
        return namespaces
    }

    private mutating func text(_ node: Node, field: String) -> String? {
        guard let scalar = node.scalar, !isNull(node), !scalar.text.isEmpty else {
            error(node, "\(field) must be text, found \(node.kindDescription)",
                  hint: "write one value on the line, such as `name: ana`; quote it if it looks like a number")
            return nil
        }
        return scalar.text
    }

    private mutating func bool(_ node: Node, field: String) -> Bool? {
        guard case .bool(let value)? = node.scalar?.value else {
            error(node, "\(field) must be true or false, found \(node.kindDescription)",
                  hint: "write `\(field): true` or `\(field): false`")
            return nil
        }
        return value
    }

    private func isNull(_ node: Node) -> Bool {
        if case .null? = node.scalar?.value { return true }
        return false
    }

    private mutating func unknown(_ key: Node, _ name: String, known: [String], in place: String) {
        let nearest = Suggestions.nearest(to: name, in: known)
        if let nearest { suggested.insert(nearest) }
        let hint = nearest.map(Message.didYouMean(one:)) ?? "the fields here are " + known.joined(separator: ", ")
        error(key, "unknown field '\(name)' in \(place)", hint: hint)
    }

    private mutating func error(_ node: Node, _ message: String, hint: String? = nil) {
        diagnostics.append(.error(at: node.location, message, hint: hint))
    }
}
