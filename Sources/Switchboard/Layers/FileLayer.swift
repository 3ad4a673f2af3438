import Foundation
import YAML

/// The file layer, typed: each override file entry checked against its key's definition.
///
/// The last file that sets a key wins; a value that does not fit is skipped with a warning and the file before it
/// is tried, so one bad value never hides a good one further down. An entry whose key has no definition is a
/// warning with the nearest key as a hint.
package enum FileLayer {
    /// Types the override files' entries against a registry.
    package static func type(_ files: FileOverrides, against registry: Registry) -> LayerResult {
        var result = LayerResult(layer: .file)
        for definition in registry.definitions {
            guard let last = files.entries[definition.key] else { continue }
            let candidates = (files.earlierEntries[definition.key] ?? []) + [last]
            var typed = TypedOverride()
            for entry in candidates.reversed() {
                let override: Override
                let problem: ValueProblem?
                switch Self.value(of: entry.node, for: definition) {
                case .success(let value):
                    override = Override(key: definition.key, value: value, layer: .file, origin: .file(entry.location))
                    problem = definition.problem(with: value)
                case .failure(let typeProblem):
                    override = Override(key: definition.key, value: Value(node: entry.node), layer: .file,
                                        origin: .file(entry.location))
                    problem = typeProblem
                }
                guard let problem else {
                    typed.accepted = override
                    break
                }
                typed.rejected.append((override, problem))
                result.diagnostics.append(.warning(at: entry.node.location,
                                                   "override of \(definition.key) skipped: \(problem.message)",
                                                   hint: problem.hint))
            }
            result.keys[definition.key] = typed
        }
        for key in files.entries.keys.sorted() where registry[key] == nil {
            let entry = files.entries[key]!
            let hint = Suggestions.nearest(to: key, in: registry.keys).map(Message.didYouMean(one:))
                ?? "remove the override, or define the key"
            result.diagnostics.append(.warning(at: entry.location, "override of \(key), which has no definition",
                                               hint: hint))
        }
        return result
    }

    /// An entry's value: a string naming one of the definition's variants means that variant's value, as in
    /// `set` and a definition's `default` (``Definition/variantValue(named:)``); anything else is read by the type.
    private static func value(of node: Node, for definition: Definition) -> Result<Value, ValueProblem> {
        if !definition.variants.isEmpty, let scalar = node.scalar, case .string = scalar.value,
           let value = definition.variantValue(named: scalar.text)
        {
            return .success(value)
        }
        return Value.from(node, as: definition.type)
    }
}

extension FileOverrides {
    /// Checks the layer against definitions: values that do not fit (skipped at run time) and keys without a
    /// definition, as warnings at their place in the files. `validate` reports these for every override file.
    package func diagnostics(against registry: Registry) -> [Diagnostic] {
        diagnostics + FileLayer.type(self, against: registry).diagnostics
    }
}
