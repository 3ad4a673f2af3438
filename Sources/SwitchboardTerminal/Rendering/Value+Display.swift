public import Switchboard

extension Value {
    /// A one-line rendering for tables: plain strings, compact JSON otherwise, cut at 30 characters.
    public var shortText: String {
        let text = plainText
        return text.count > 30 ? String(text.prefix(29)) + "…" : text
    }
}
