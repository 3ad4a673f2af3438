import Testing
import Switchboard

/// `Attribution`: a claimed name equal to the actor adds nothing and is dropped; `unverified` records a name as
/// given.
struct AttributionTests {
    @Test func aClaimedNameBesideTheActorIsKept() {
        let attribution = Attribution(actor: "ana", claimedActor: "mallory", verified: true)
        #expect(attribution.actor == "ana")
        #expect(attribution.claimedActor == "mallory")
        #expect(attribution.verified)
    }

    @Test func aClaimedNameEqualToTheActorIsDropped() {
        #expect(Attribution(actor: "ana", claimedActor: "ana", verified: true).claimedActor == nil)
        #expect(AuditRecord(time: "", actor: "ana", claimedActor: "ana", key: "k", old: nil, new: 1).claimedActor
                    == nil)
    }

    @Test func unverifiedRecordsTheNameAsGiven() {
        #expect(Attribution.unverified("cli:bob") == Attribution(actor: "cli:bob", claimedActor: nil, verified: false))
    }

    @Test func aRecordMadeFromAnAttributionGivesItBack() {
        let attribution = Attribution(actor: "ana", claimedActor: "mallory", verified: true)
        let record = AuditRecord(time: "2026-11-27T10:00:00.000Z", attribution: attribution, key: "limit", old: nil,
                                 new: 7)
        #expect(record.actor == "ana")
        #expect(record.attribution == attribution)
    }
}
