import Foundation
package import Switchboard

/// The contexts a review evaluates both versions over: read from JSON Lines, or synthesized from what the rules
/// of either version test.
package struct Population: Sendable {
    /// The contexts, in order.
    package var contexts: [EvaluationContext]

    /// A population of given contexts.
    package init(contexts: [EvaluationContext]) {
        self.contexts = contexts
    }

    /// Reads one evaluation context per line of JSON (`{"targetingKey": "user-1", "plan": "pro"}`); blank lines
    /// are skipped.
    ///
    /// - Throws: ``ReviewError`` naming the file and line of the first line that is not a JSON object, or whose
    ///   `targetingKey` is not a string.
    package init(jsonLines text: String, file: String) throws(ReviewError) {
        var contexts: [EvaluationContext] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { continue }
            let value: Value
            do {
                value = try Value(json: trimmed)
            } catch {
                throw ReviewError("\(file):\(index + 1): not JSON: \(error)", hint: Self.lineHint)
            }
            guard var attributes = value.objectValue else {
                throw ReviewError("\(file):\(index + 1): a context is a JSON object", hint: Self.lineHint)
            }
            var targetingKey: String?
            if let key = attributes.removeValue(forKey: "targetingKey") {
                guard let text = key.stringValue else {
                    throw ReviewError("\(file):\(index + 1): targetingKey must be a string")
                }
                targetingKey = text
            }
            contexts.append(EvaluationContext(targetingKey: targetingKey, attributes: attributes))
        }
        self.contexts = contexts
    }

    /// The hint for a line that is not a context.
    package static let lineHint = #"write one JSON object per line: {"targetingKey": "user-1", "plan": "pro"}"#

    /// Reads a JSON Lines file of contexts.
    ///
    /// - Throws: ``ReviewError`` when the file cannot be read or a line is not a context.
    package init(jsonLinesFile path: String) throws(ReviewError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ReviewError("cannot read the contexts file \(path)")
        }
        try self.init(jsonLines: String(decoding: data, as: UTF8.self), file: path)
    }

    /// The most contexts a review synthesizes: a million take about 10 s and 850 MB, and many more could not be
    /// held at all.
    package static let largestSynthesizedCount = 1_000_000

    /// Synthesizes `count` contexts: each has a random targeting key, and for every attribute a rule tests, one
    /// of the values the rules compare it with, or a value that matches none, chosen at random. The same seed
    /// gives the same contexts.
    package init(synthesizing count: Int, seed: UInt64, attributes: [String: [Value]]) {
        var generator = SeededGenerator(seed: seed)
        let names = attributes.keys.sorted()
        let choices = names.map { name in (attributes[name] ?? []) + [.string("(none of the tested values)")] }
        var contexts: [EvaluationContext] = []
        contexts.reserveCapacity(count)
        for _ in 0..<count {
            let key = "user-" + String(generator.next(), radix: 36)
            var values: [String: Value] = [:]
            for (name, options) in zip(names, choices) {
                values[name] = options[Int(generator.next() % UInt64(options.count))]
            }
            contexts.append(EvaluationContext(targetingKey: key, attributes: values))
        }
        self.contexts = contexts
    }

    /// The attributes a JSON Logic rule tests and the values it compares each with: `{"==": [{"var": "plan"},
    /// "pro"]}` gives `plan: ["pro"]`, `{"in": [{"var": "country"}, ["de", "fr"]]}` gives `country: ["de", "fr"]`.
    /// Dotted paths (`{"var": "user.plan"}`) and `$flagd` properties are left out.
    package static func testedAttributes(in rule: Value, into result: inout [String: [Value]]) {
        switch rule {
        case .list(let items):
            for item in items { testedAttributes(in: item, into: &result) }
        case .object(let fields):
            // In key order: the same rules must give the same contexts in every process.
            for (operation, arguments) in fields.sorted(by: { $0.key < $1.key }) {
                if operation == "var" { continue }
                let items = arguments.listValue ?? [arguments]
                let names = items.compactMap(variableName)
                for name in names {
                    var literals: [Value] = []
                    for item in items where variableName(item) == nil {
                        switch item {
                        case .string, .int, .double, .bool: literals.append(item)
                        case .list(let values):
                            literals += values.filter { $0.listValue == nil && $0.objectValue == nil }
                        default: break
                        }
                    }
                    // The attribute is tested even when compared with no literal: present, it takes a value.
                    var known = result[name] ?? []
                    for literal in literals where !known.contains(literal) { known.append(literal) }
                    result[name] = known
                }
                testedAttributes(in: arguments, into: &result)
            }
        default:
            break
        }
    }

    /// The name of `{"var": "name"}` (or `{"var": ["name", default]}`), when it names a top-level attribute.
    private static func variableName(_ value: Value) -> String? {
        guard case .object(let fields) = value, fields.count == 1, let path = fields["var"] else { return nil }
        let name = path.stringValue ?? path.listValue?.first?.stringValue
        guard let name, !name.isEmpty, !name.contains("."), name != "targetingKey" else { return nil }
        return name
    }

    /// The attributes the targeting of any of `definitions` tests, with the values compared, in key order.
    package static func testedAttributes(of definitions: [Definition]) -> [String: [Value]] {
        var result: [String: [Value]] = [:]
        for definition in definitions {
            guard let targeting = definition.targeting else { continue }
            for rule in targeting.rules { testedAttributes(in: rule.condition.source, into: &result) }
            if let source = targeting.flag.targeting?.source { testedAttributes(in: source, into: &result) }
        }
        return result
    }
}
