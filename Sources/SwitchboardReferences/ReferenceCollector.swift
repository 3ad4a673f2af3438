import SwiftSyntax

/// What the visitors of one file find, with the converter that turns syntax positions into lines and columns.
final class ReferenceCollector {
    private let file: String
    /// The UTF-8 offset at which each line starts.
    private let lineStarts: [Int]
    /// The keys named exactly.
    private(set) var references: [KeyReference] = []
    /// The keys built at run time.
    private(set) var dynamic: [SourcePosition] = []

    /// A collector for a file's source text, reported under `file`. Lines are found in the text (`\n`, `\r\n`
    /// or `\r` ends one, as for the parser) rather than with `SourceLocationConverter`, which reads the whole
    /// tree back token by token to find them.
    init(file: String, source: String) {
        self.file = file
        var starts = [0]
        var previous: UInt8 = 0
        var offset = 0
        for byte in source.utf8 {
            if byte == UInt8(ascii: "\n"), previous == UInt8(ascii: "\r") {
                starts[starts.count - 1] = offset + 1
            } else if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                starts.append(offset + 1)
            }
            previous = byte
            offset += 1
        }
        lineStarts = starts
    }

    /// Where a node starts, after its leading trivia: 1-based line, and column in UTF-8 bytes.
    func position(of node: some SyntaxProtocol) -> SourcePosition {
        let offset = node.positionAfterSkippingLeadingTrivia.utf8Offset
        // The last line that starts at or before the offset.
        var low = 0, high = lineStarts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle }
        }
        return SourcePosition(file: file, line: low + 1, column: offset - lineStarts[low] + 1)
    }

    /// Records a key named exactly.
    func key(_ key: String, at node: some SyntaxProtocol, form: ReferenceForm) {
        references.append(KeyReference(key: key, position: position(of: node), form: form))
    }

    /// Records a key expression of the given kind in a key's position; typed keys and non-keys are left alone.
    func keyExpression(_ expression: ExprSyntax, form: ReferenceForm) {
        switch KeyExpression(expression) {
        case .literal(let text): key(text, at: expression, form: form)
        case .dynamic: dynamic.append(position(of: expression))
        case .typed, .notAKey: break
        }
    }

    /// Records a key built at run time.
    func dynamicKey(at node: some SyntaxProtocol) {
        dynamic.append(position(of: node))
    }
}
