/// One server-sent event: what an empty line dispatches.
struct ServerSentEvent: Sendable, Hashable {
    /// The `event:` field, `message` when absent.
    var type: String
    /// The `data:` lines joined with newlines.
    var data: String
    /// The last event id seen so far on the stream (it carries over to later events, as in the HTML standard).
    var lastEventID: String?
}

/// A server-sent event parser after the HTML standard's rules: lines end with LF, CRLF or CR; `:` starts a
/// comment; an empty line dispatches the event when it has data; an `id` with a NUL is ignored.
struct ServerSentEventParser: Sendable {
    private var line: [UInt8] = []
    private var previousWasCR = false
    private var dataLines: [String] = []
    private var hasData = false
    private var eventType = ""
    /// The last event id, sent back as `Last-Event-ID` on reconnection.
    private(set) var lastEventID: String?
    /// The reconnection time the server asked for, in milliseconds.
    private(set) var retryMilliseconds: Int?

    /// Feeds bytes as they arrive and returns the events they complete.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if byte == 0x0A, previousWasCR {
                previousWasCR = false
                continue
            }
            previousWasCR = byte == 0x0D
            if byte == 0x0A || byte == 0x0D {
                if let event = endLine() { events.append(event) }
            } else {
                line.append(byte)
            }
        }
        return events
    }

    private mutating func endLine() -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty { return dispatch() }
        if line.first == 0x3A { return nil }
        let text = String(decoding: line, as: UTF8.self)
        let field: Substring
        var value: Substring
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
        } else {
            field = text[...]
            value = ""
        }
        switch field {
        case "event": eventType = String(value)
        case "data":
            dataLines.append(String(value))
            hasData = true
        case "id" where !value.contains("\0"): lastEventID = String(value)
        case "retry": if let milliseconds = Int(value), milliseconds >= 0 { retryMilliseconds = milliseconds }
        default: break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            dataLines.removeAll()
            hasData = false
            eventType = ""
        }
        guard hasData else { return nil }
        return ServerSentEvent(type: eventType.isEmpty ? "message" : eventType,
                               data: dataLines.joined(separator: "\n"), lastEventID: lastEventID)
    }
}
