import Switchboard
import Testing

@Test func theNewFlowIsOffByDefault() {
    #expect(Flags.Shop.newFlow.defaultValue == false)
}
