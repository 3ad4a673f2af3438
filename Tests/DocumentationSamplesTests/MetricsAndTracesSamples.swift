import Logging
import Metrics
import Switchboard
import Testing
import SwitchboardTestSupport

/// The samples of "Metrics and traces".
@Suite struct MetricsAndTracesSamples {
    @Test func reportThroughTheEcosystem() throws {
        let (project, flags) = try exampleProject()
        defer { project.remove() }
        let myFactory = NOOPMetricsHandler.instance

        var options = BoardOptions()
        options.logger = Logger(label: "checkout.flags")      // default: Logger(label: "switchboard")
        options.metricsFactory = myFactory                    // default: MetricsSystem.factory at creation
        options.evaluationEvents = .on                        // default .off; .onWithValues adds the value
        let board = try Board(directory: flags, options: options)
        #expect(board.bool("checkout.new_flow", default: true) == false)
    }
}
