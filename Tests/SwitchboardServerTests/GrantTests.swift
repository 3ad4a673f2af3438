import SwitchboardServer
import Testing

/// What a role may write: namespaces are whole-segment key prefixes, and several grants unite.
@Suite struct GrantTests {
    @Test func aNamespaceIsAWholeSegmentPrefix() {
        let writer = Grant(role: .write, namespaces: ["checkout"])
        #expect(writer.mayWrite("checkout.new_flow"))
        #expect(writer.mayWrite("checkout"))
        #expect(writer.mayWrite("checkout.deep.key"))
        #expect(!writer.mayWrite("checkouts.x"))
        #expect(!writer.mayWrite("app.theme"))
        #expect(writer.refusal(toWrite: "app.theme") == "'app.theme' is outside the namespaces this role may write ('checkout')")
        #expect(writer.refusal(toWrite: "checkout.a") == nil)
    }

    @Test func rolesOrderAndDecide() {
        #expect(Role.read < .write && Role.write < .admin)
        #expect(!Grant(role: .read).mayWrite("app.theme"))
        #expect(Grant(role: .read).refusal(toWrite: "app.theme") == "the role 'read' may not change values")
        #expect(Grant(role: .write).mayWrite("anything.at_all"))
        #expect(Grant(role: .admin, namespaces: ["x"]).mayWrite("app.theme"))
    }

    @Test func theHighestRoleWinsAndNamespacesUnite() {
        let payments = Grant(role: .write, namespaces: ["checkout"])
        let app = Grant(role: .write, namespaces: ["app", "checkout"])
        #expect(payments.merged(with: app) == Grant(role: .write, namespaces: ["checkout", "app"]))
        #expect(payments.merged(with: Grant(role: .read)) == payments)
        #expect(payments.merged(with: Grant(role: .admin)) == Grant(role: .admin))
        #expect(payments.merged(with: Grant(role: .write)) == Grant(role: .write))
        #expect(payments.description == "write in checkout")
    }
}
