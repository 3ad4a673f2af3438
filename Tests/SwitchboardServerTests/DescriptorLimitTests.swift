import SwitchboardServer
import Testing

/// The open-files limit and the connection cap it allows.
@Suite struct DescriptorLimitTests {
    @Test func keepsATenthOfTheLimitForEverythingButConnections() {
        #expect(DescriptorLimit(soft: 1024, hard: 1024).connectionCap(for: 10_000) == 922)
        #expect(DescriptorLimit(soft: 1_048_576, hard: 1_048_576).connectionCap(for: 10_000) == 10_000)
        #expect(DescriptorLimit(soft: 20_000, hard: 20_000).connectionCap(for: 50_000) == 18_000)
    }

    @Test func keepsAtLeast64AndAllowsAtLeastOneConnection() {
        #expect(DescriptorLimit(soft: 256, hard: 4096).reserve == 64)
        #expect(DescriptorLimit(soft: 256, hard: 4096).connectionCap(for: 10_000) == 192)
        #expect(DescriptorLimit(soft: 10, hard: 10).connectionCap(for: 10_000) == 1)
    }

    @Test func anUnlimitedLimitLeavesTheConfiguredCap() {
        let unlimited = DescriptorLimit(soft: .max, hard: .max)
        #expect(unlimited.connectionCap(for: 10_000) == 10_000)
        #expect(unlimited.description == "soft unlimited, hard unlimited")
    }

    @Test func readsTheProcesssLimit() {
        let limit = DescriptorLimit.current()
        #expect(limit.soft > 0)
        #expect(limit.soft <= limit.hard)
    }
}
