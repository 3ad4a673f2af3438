/// Why a review could not be made: no repository, an unknown revision, a side whose definitions do not validate.
package struct ReviewError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, naming the revision or folder: "HEAD~1 does not validate: flags/app.yaml:3:5: error: …".
    package var message: String
    /// How to fix it, when there is something to say.
    package var hint: String?

    /// Creates an error.
    package init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    /// The message, with the hint after a semicolon.
    package var description: String {
        hint.map { "\(message); \($0)" } ?? message
    }
}
