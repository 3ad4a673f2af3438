import NIOCore

/// When a connection has waited too long, from what happened on it: the header timeout while a request head is
/// arriving, the idle timeout while nothing is in progress (or a request body stalls), and none while a response
/// is in progress.
///
/// A value type fed with events and instants, so it is tested without sockets or clocks;
/// ``ConnectionTimeoutHandler`` feeds it from the channel and acts on ``verdict(at:)``.
struct ConnectionDeadlines {
    /// Why a connection is closed.
    enum Reason: String, Sendable, CaseIterable {
        /// The request head did not arrive in time.
        case headerTimeout = "header_timeout"
        /// Nothing was in progress for the idle timeout, or a request body stalled that long.
        case idleTimeout = "idle_timeout"
    }

    /// What to do now.
    enum Verdict: Equatable {
        /// Close the connection; `canRespond` when no response is in progress on it, so a 408 can be written.
        case close(Reason, canRespond: Bool)
        /// Look again at this instant.
        case checkAt(NIODeadline)
        /// Nothing can time out now: a response is in progress.
        case none
    }

    let headerTimeout: TimeAmount
    let idleTimeout: TimeAmount

    /// When the head being read began: the connection's start for the first request, its first byte for later
    /// ones; `nil` while no head is being read.
    private var headStarted: NIODeadline?
    /// Since when nothing has been in progress; `nil` while something is.
    private var idleSince: NIODeadline?
    /// Requests whose head arrived and whose response has not ended.
    private var requestsInProgress = 0
    /// Whether the body of the last request is still arriving.
    private var readingBody = false
    /// When bytes last arrived.
    private var lastRead: NIODeadline

    /// A connection that opened at `start`: its first request head is due within the header timeout.
    init(headerTimeout: TimeAmount, idleTimeout: TimeAmount, start: NIODeadline) {
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        headStarted = start
        lastRead = start
    }

    /// Bytes arrived. Outside a request body they begin a head; the deadline is not moved by later ones, so a
    /// client that trickles its head gains nothing.
    mutating func bytesRead(at now: NIODeadline) {
        lastRead = now
        if headStarted == nil, !readingBody { headStarted = now }
        idleSince = nil
    }

    /// A request head was decoded.
    mutating func headReceived() {
        headStarted = nil
        idleSince = nil
        requestsInProgress += 1
        readingBody = true
    }

    /// The request's end was decoded: its body, if any, is in.
    mutating func requestReceived(at now: NIODeadline) {
        readingBody = false
        becomeIdleIfNothingInProgress(at: now)
    }

    /// A response ended.
    mutating func responseSent(at now: NIODeadline) {
        requestsInProgress = max(0, requestsInProgress - 1)
        becomeIdleIfNothingInProgress(at: now)
    }

    private mutating func becomeIdleIfNothingInProgress(at now: NIODeadline) {
        if requestsInProgress == 0, headStarted == nil, !readingBody, idleSince == nil { idleSince = now }
    }

    /// Whether the connection must close at `now`, and if not, when to look again.
    func verdict(at now: NIODeadline) -> Verdict {
        if let headStarted {
            let deadline = headStarted + headerTimeout
            return now >= deadline ? .close(.headerTimeout, canRespond: requestsInProgress == 0) : .checkAt(deadline)
        }
        if readingBody {
            let deadline = lastRead + idleTimeout
            return now >= deadline ? .close(.idleTimeout, canRespond: false) : .checkAt(deadline)
        }
        if requestsInProgress > 0 { return .none }
        let deadline = (idleSince ?? now) + idleTimeout
        return now >= deadline ? .close(.idleTimeout, canRespond: false) : .checkAt(deadline)
    }
}
