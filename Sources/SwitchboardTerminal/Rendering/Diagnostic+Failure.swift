public import Switchboard

extension Diagnostic {
    /// How a command reports the diagnostics that stopped it. With `json`, one object on standard output,
    /// `{"ok": false, "diagnostics": [...]}` with `fields` beside: every command's `--json` fails in this shape, so a
    /// script reads one document whatever went wrong. Otherwise each diagnostic goes to standard error.
    public static func reportFailure(_ diagnostics: [Diagnostic], json: Bool, fields: [String: Value] = [:]) {
        if json {
            let object = fields.merging(["ok": false, "diagnostics": .list(diagnostics.map(\.jsonValue))]) { $1 }
            print(Value.object(object).json)
        } else {
            for diagnostic in diagnostics { Terminal.standardError.print(diagnostic: diagnostic) }
        }
    }
}
