import Foundation
public import Switchboard
import YAML

/// Adds and removes people in an access file as text, so its comments, order and `oidc:` section stay as written:
/// what `switchboard access add` and `access revoke` do.
///
/// Every edit is checked before anything is written: the file must parse, the result must parse and hold exactly
/// the change, and the file is replaced atomically (a crash leaves the old file or the new one).
public enum AccessFileEditor {
    /// Why an edit was refused; nothing was written.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        /// What is wrong, with the diagnostics of an invalid file.
        public var message: String
        /// What to do about it.
        public var hint: String?
        /// The file's diagnostics, when it is invalid.
        public var diagnostics: [Diagnostic] = []

        /// The message and the hint.
        public var description: String { hint.map { "\(message)\n  hint: \($0)" } ?? message }
    }

    /// Adds a person with a new token to the file at `path` (created when missing).
    ///
    /// - Returns: the token, to print once: it is written nowhere.
    /// - Throws: ``Refusal`` when the name is taken or reserved, a namespace is not a key prefix, or the file is
    ///   invalid.
    public static func add(name: String, grant: Grant, toFileAt path: String) throws(Refusal) -> String {
        if let problem = AccessFile.nameProblem(name) { throw Refusal(message: problem.text, hint: problem.hint) }
        for namespace in grant.namespaces ?? [] where !KeySyntax.isValid(namespace) {
            throw Refusal(message: "'\(namespace)' is not a namespace: a namespace is a key prefix such as `checkout`",
                          hint: KeySyntax.hint(for: namespace))
        }
        let token = TokenDigest.newToken()
        let entry = entryLines(name: name, hash: TokenDigest.sha256(of: token), grant: grant)
        guard let data = FileManager.default.contents(atPath: path) else {
            let text = "# Who may use this Switchboard server: see `switchboard access --help`.\n"
                + "# Tokens are never stored here, only their SHA-256.\npeople:\n"
                + entry.map { "  " + $0 + "\n" }.joined()
            try write(text, to: path, expecting: { $0.people.map(\.name) == [name] })
            return token
        }
        var lines = String(decoding: data, as: UTF8.self).components(separatedBy: "\n")
        let (file, document) = try parse(data, path: path)
        if let existing = file.people.first(where: { $0.name == name }) {
            throw Refusal(message: "'\(name)' is already in \(path)\(existing.location.map { " (\($0))" } ?? "")",
                          hint: "revoke it first with `switchboard access revoke \(name)`, or choose another name")
        }
        let before = file.people.map(\.name)
        if let people = peopleNode(document), let items = people.value.items, let last = items.last {
            // After the last person's block, with its indentation.
            let dashLine = last.location.line - 1
            let indent = String(lines[dashLine].prefix { $0 == " " })
            let end = blockEnd(after: dashLine, in: lines, document: document)
            lines.insert(contentsOf: entry.map { indent + $0 }, at: end)
        } else if let people = peopleNode(document) {
            // `people:` with nothing (or `[]`) after it.
            let line = people.key.location.line - 1
            lines[line] = "people:"
            lines.insert(contentsOf: entry.map { "  " + $0 }, at: line + 1)
        } else {
            if lines.last == "" { lines.removeLast() }
            lines.append("people:")
            lines.append(contentsOf: entry.map { "  " + $0 })
            lines.append("")
        }
        try write(lines.joined(separator: "\n"), to: path, expecting: { $0.people.map(\.name) == before + [name] })
        return token
    }

    /// Removes a person from the file at `path`; their token stops working on a server watching the file within
    /// a second.
    ///
    /// - Throws: ``Refusal`` when there is no such person or the file is invalid.
    public static func revoke(name: String, inFileAt path: String) throws(Refusal) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Refusal(message: "cannot read the access file \(path)", hint: "check the path")
        }
        let (file, document) = try parse(data, path: path)
        guard let people = peopleNode(document)?.value.items,
              let index = file.people.firstIndex(where: { $0.name == name }),
              let item = people.first(where: { $0.location == file.people[index].location })
        else {
            let hint = Suggestions.nearest(to: name, in: file.people.map(\.name)).map(Message.didYouMean(one:))
                ?? "`switchboard access list` shows who is there"
            throw Refusal(message: "'\(name)' is not in \(path)", hint: hint)
        }
        var lines = String(decoding: data, as: UTF8.self).components(separatedBy: "\n")
        let dashLine = item.location.line - 1
        let next = people.first { $0.location.line > item.location.line }
        let end = next.map { $0.location.line - 1 } ?? blockEnd(after: dashLine, in: lines, document: document)
        lines.removeSubrange(dashLine..<end)
        let remaining = file.people.map(\.name).filter { $0 != name }
        try write(lines.joined(separator: "\n"), to: path, expecting: { $0.people.map(\.name) == remaining })
    }

    /// A person's lines, unindented: `- name: …` and its fields.
    static func entryLines(name: String, hash: String, grant: Grant) -> [String] {
        var lines = ["- name: \(quoted(name))", "  token_sha256: \(hash)", "  role: \(grant.role.rawValue)"]
        if grant.role == .write, let namespaces = grant.namespaces {
            lines.append("  namespaces: [" + namespaces.joined(separator: ", ") + "]")
        }
        return lines
    }

    /// A name as a YAML scalar: plain when it reads back as the same text, else double-quoted.
    static func quoted(_ name: String) -> String {
        let plain = name.allSatisfy { $0.isLetter || $0.isNumber || "-_.@+".contains($0) }
            && !(name.first.map { "-.".contains($0) } ?? true)
        if plain, case .string = Scalar.Value.resolve(plain: name) { return name }
        var out = "\""
        for character in name.unicodeScalars {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where character.value < 0x20: out += String(format: "\\x%02X", character.value)
            default: out.unicodeScalars.append(character)
            }
        }
        return out + "\""
    }

    /// The `people:` pair of the top-level mapping.
    private static func peopleNode(_ document: YAMLDocument) -> Node.Pair? {
        document.root?.pairs?.first { $0.key.scalar?.text == "people" }
    }

    /// The index of the line after the block that starts at `line`: the next top-level key's line, or the end of
    /// the file, less the blank and top-level comment lines before it (they belong to what follows).
    private static func blockEnd(after line: Int, in lines: [String], document: YAMLDocument) -> Int {
        let nextTop = document.root?.pairs?.map { $0.key.location.line - 1 }.filter { $0 > line }.min()
        var end = nextTop ?? lines.count
        while end > line + 1 {
            let text = lines[end - 1]
            if text.trimmingCharacters(in: .whitespaces).isEmpty || text.hasPrefix("#") { end -= 1 } else { break }
        }
        return end
    }

    private static func parse(_ data: Data, path: String) throws(Refusal) -> (AccessFile, YAMLDocument) {
        let document = YAMLParser.parse([UInt8](data), file: path)
        do {
            return (try AccessFile.parse(document, file: path).file, document)
        } catch {
            throw Refusal(message: "\(path) is invalid; fix it before changing it",
                          hint: "`switchboard access list` shows every mistake", diagnostics: error.diagnostics)
        }
    }

    /// Writes `text` atomically after checking that it parses and `expecting` holds of it.
    private static func write(_ text: String, to path: String, expecting: (AccessFile) -> Bool) throws(Refusal) {
        let bytes = [UInt8](text.utf8)
        guard let file = try? AccessFile.parse(bytes, file: path).file, expecting(file) else {
            throw Refusal(message: "cannot edit \(path) safely: its layout is not one this command can change",
                          hint: "edit it by hand: add the person under `people:` in block style")
        }
        do {
            try AtomicFile.write(bytes, to: path)
        } catch {
            throw Refusal(message: error.description, hint: "check the folder's permissions")
        }
    }
}
