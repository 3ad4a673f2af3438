import YAML

extension Diagnostic {
    /// The diagnostic as a JSON object: severity, message, and file, line, column and hint when present.
    public var jsonValue: Value {
        var object: [String: Value] = ["severity": .string(severity.rawValue), "message": .string(message)]
        if let location {
            object["file"] = .string(location.file)
            object["line"] = .int(location.line)
            object["column"] = .int(location.column)
        }
        if let hint { object["hint"] = .string(hint) }
        return .object(object)
    }
}
