import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// Each scheduled fixture agrees with the same flags written for flagd as JSON Logic over `$flagd.timestamp`:
/// before, at and after every step, for many targeting keys (the rollout steps bucket as flagd's `fractional`,
/// which seeds with the flag's key: the flagd flags carry the full keys).
struct ScheduleFlagdAgreementTests {
    static let fixtures = FixtureFolder(Bundle.module.url(forResource: "Fixtures", withExtension: nil))

    @Test func theBoardAndTheFlagdEngineAgreeAroundEveryStep() throws {
        let yaml = try Self.fixtures.text("schedules/release.yaml")
        let board = try Board(
            inputs: BoardInputs(definitions: .sources([("flags/release.yaml", yaml)]), environment: [:]),
            options: BoardOptions(pollInterval: nil))
        let (flagSet, diagnostics) = FlagdFlagSet.parse(try Self.fixtures.bytes("schedules/release.flagd.json"),
                                                        file: "release.flagd.json")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let flagd = FlagdEvaluator(flagSet)
        let steps = board.registry.definitions.flatMap { $0.schedule?.steps.map(\.at) ?? [] }
        #expect(Set(steps).count == 3)
        let times = Set(steps.flatMap { [$0 - 1, $0, $0 + 1] } + [steps.min()! - 86_400, steps.max()! + 86_400])
        var compared = 0
        for time in times.sorted() {
            for user in 0..<40 {
                let context = EvaluationContext(targetingKey: "user-\(user)")
                for definition in board.registry.definitions {
                    let key = definition.key
                    let ours = board.resolve(key, at: Date(timeIntervalSince1970: time), context: context)
                    let theirs = flagd.evaluate(key, context: context, timestamp: Int(time))
                    #expect(ours.value == theirs.value, "\(key) at \(time) for user-\(user)")
                    compared += 1
                }
            }
        }
        #expect(compared == times.count * 40 * 3)
    }
}
