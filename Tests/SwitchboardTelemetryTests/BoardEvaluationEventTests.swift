import InMemoryTracing
import Switchboard
import SwitchboardTesting
import Testing
import Tracing

/// `feature_flag.evaluation` events from a board's typed lookups, with OpenTelemetry's attribute names.
@Suite struct BoardEvaluationEventTests {
    /// The events `lookups` add to one span, with a board made by `board`.
    func events(of board: Board, _ lookups: (Board) -> Void) throws -> [SpanEvent] {
        let tracer = InMemoryTracer()
        withTracer(tracer) {
            withSpan("request") { _ in lookups(board) }
        }
        return try #require(tracer.finishedSpans.first).events
    }

    @Test func eachLookupAddsOneEventWithTheConventionsAttributes() throws {
        let board = try Board.testing(yaml: shopDefinitions, overrides: ["shop.page_size": 50], evaluationEvents: .on)
        let events = try events(of: board) { board in
            #expect(board.bool("shop.banner", default: true) == false)
            #expect(board.int("shop.page_size", default: 0) == 50)
            #expect(board.int("shop.missing", default: 7) == 7)
            #expect(board.string("shop.page_size", default: "none") == "none")
            #expect(board.details("shop.banner", default: true).value == false)
        }
        #expect(events.map(\.name) == Array(repeating: "feature_flag.evaluation", count: 5))
        let first = events[0].flattened
        #expect(first["feature_flag.key"] == "shop.banner")
        #expect(first["feature_flag.provider.name"] == "switchboard")
        #expect(first["feature_flag.result.reason"] == "static")
        #expect(first["error.type"] == nil)
        #expect(first["feature_flag.result.value"] == nil)
        // An override is `static` to OpenFeature, as OFREP sends it.
        #expect(events[1].flattened["feature_flag.result.reason"] == "static")
        #expect(events[1].flattened["feature_flag.result.value"] == nil)
        #expect(events[2].flattened["error.type"] == "flag_not_found")
        #expect(events[2].flattened["feature_flag.result.reason"] == "error")
        #expect(events[2].flattened["error.message"] != nil)
        #expect(events[3].flattened["error.type"] == "type_mismatch")
        #expect(events[3].flattened["feature_flag.key"] == "shop.page_size")
        #expect(events[4].flattened["feature_flag.key"] == "shop.banner")
    }

    @Test func theValueGoesInOnlyWhenAskedFor() throws {
        let board = try Board.testing(yaml: shopDefinitions, evaluationEvents: .onWithValues)
        let events = try events(of: board) { board in
            _ = board.int("shop.page_size", default: 0)
            _ = board.int("shop.page_size", default: 0, context: EvaluationContext(targetingKey: "u1"))
        }
        #expect(events.map { $0.flattened["feature_flag.result.value"] } == ["20", "20"])
    }

    @Test func offAddsNothing() throws {
        let board = try Board.testing(yaml: shopDefinitions)
        let events = try events(of: board) { board in
            _ = board.bool("shop.banner", default: true)
            _ = board.details("shop.banner", default: true)
        }
        #expect(events.isEmpty)
    }

    @Test func withoutASpanNothingIsAdded() throws {
        let tracer = InMemoryTracer()
        let board = try Board.testing(yaml: shopDefinitions, evaluationEvents: .on)
        withTracer(tracer) { _ = board.bool("shop.banner", default: true) }
        #expect(tracer.finishedSpans.isEmpty)
        #expect(tracer.activeSpans.isEmpty)
    }
}
