import NIOCore
@testable import SwitchboardServer
import Testing

/// When a connection times out, from the events on it, with instants given by the test: no clock, no socket.
@Suite struct ConnectionDeadlinesTests {
    let start = NIODeadline.uptimeNanoseconds(1_000_000_000_000)

    func at(_ seconds: Int64) -> NIODeadline { start + .seconds(seconds) }

    func deadlines() -> ConnectionDeadlines {
        ConnectionDeadlines(headerTimeout: .seconds(10), idleTimeout: .seconds(60), start: start)
    }

    @Test func aNewConnectionMustSendItsHeadWithinTheHeaderTimeout() {
        let deadlines = deadlines()
        #expect(deadlines.verdict(at: at(1)) == .checkAt(at(10)))
        #expect(deadlines.verdict(at: at(10)) == .close(.headerTimeout, canRespond: true))
    }

    @Test func bytesThatTrickleInDoNotMoveTheDeadline() {
        var deadlines = deadlines()
        for second in 1...9 { deadlines.bytesRead(at: at(Int64(second))) }
        #expect(deadlines.verdict(at: at(10)) == .close(.headerTimeout, canRespond: true))
    }

    @Test func anIdleConnectionWaitsForTheIdleTimeoutThenTheNextHeadForTheHeaderTimeout() {
        var deadlines = deadlines()
        deadlines.bytesRead(at: at(1))
        deadlines.headReceived()
        deadlines.requestReceived(at: at(1))
        deadlines.responseSent(at: at(2))
        #expect(deadlines.verdict(at: at(3)) == .checkAt(at(62)))
        // The next request's first byte starts its own header timeout.
        deadlines.bytesRead(at: at(30))
        #expect(deadlines.verdict(at: at(31)) == .checkAt(at(40)))
        #expect(deadlines.verdict(at: at(40)) == .close(.headerTimeout, canRespond: true))
    }

    @Test func closesAKeepAliveConnectionLeftIdle() {
        var deadlines = deadlines()
        deadlines.bytesRead(at: at(0))
        deadlines.headReceived()
        deadlines.requestReceived(at: at(0))
        deadlines.responseSent(at: at(1))
        #expect(deadlines.verdict(at: at(61)) == .close(.idleTimeout, canRespond: false))
    }

    @Test func aResponseInProgressIsNeverIdle() {
        var deadlines = deadlines()
        deadlines.bytesRead(at: at(0))
        deadlines.headReceived()
        deadlines.requestReceived(at: at(0))
        #expect(deadlines.verdict(at: at(100_000)) == .none)
    }

    @Test func aStalledBodyTimesOutLikeAnIdleConnection() {
        var deadlines = deadlines()
        deadlines.bytesRead(at: at(0))
        deadlines.headReceived()
        deadlines.bytesRead(at: at(5))
        #expect(deadlines.verdict(at: at(6)) == .checkAt(at(65)))
        #expect(deadlines.verdict(at: at(65)) == .close(.idleTimeout, canRespond: false))
    }

    @Test func aPipelinedHeadThatStallsIsClosedWithoutA408WhileAResponseIsInProgress() {
        var deadlines = deadlines()
        deadlines.bytesRead(at: at(0))
        deadlines.headReceived()
        deadlines.requestReceived(at: at(0))
        deadlines.bytesRead(at: at(1))
        #expect(deadlines.verdict(at: at(11)) == .close(.headerTimeout, canRespond: false))
    }
}
