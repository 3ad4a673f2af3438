@testable import SwitchboardRemote
import Testing

/// The SSE parser: line endings, comments, multi-line data, ids, events split across reads.
@Suite struct ServerSentEventParserTests {
    @Test func parsesOFREPEventsSplitAcrossReads() {
        var parser = ServerSentEventParser()
        let text = ": comment\nretry: 1000\n\nid: 7\nevent: message\ndata: {\"type\":\"refetchEvaluation\"}\n\n"
        var events: [ServerSentEvent] = []
        for byte in Array(text.utf8) { events += parser.feed([byte]) }
        #expect(events == [ServerSentEvent(type: "message", data: #"{"type":"refetchEvaluation"}"#,
                                           lastEventID: "7")])
        #expect(parser.retryMilliseconds == 1000)
        #expect(RemoteCore.isRefetch(events[0]))
    }

    @Test func joinsDataLinesAndAcceptsEveryLineEnding() {
        var parser = ServerSentEventParser()
        let events = parser.feed(Array("data: a\r\ndata:b\rdata\n\r\n".utf8))
        #expect(events.map(\.data) == ["a\nb\n"])
        #expect(events.first?.type == "message")
    }

    @Test func ignoresUnknownEventTypesInTheData() {
        var parser = ServerSentEventParser()
        let events = parser.feed(Array("data: {\"type\":\"somethingNew\"}\n\ndata: not json\n\n".utf8))
        #expect(events.count == 2)
        #expect(!events.contains(where: RemoteCore.isRefetch))
    }
}
