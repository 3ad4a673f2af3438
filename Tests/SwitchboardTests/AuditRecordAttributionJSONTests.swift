import Testing
@testable import Switchboard

/// An audit record's JSON keeps who made the write: `"verified"` always, `"claimed_actor"` when there is one; a
/// record written before writes were attributed reads as unverified.
struct AuditRecordAttributionJSONTests {
    static let time = "2026-11-27T10:00:00.000Z"

    @Test func aVerifiedRecordWithAClaimRoundTrips() throws {
        let record = AuditRecord(time: Self.time, actor: "ana", claimedActor: "mallory", verified: true, key: "limit",
                                 old: nil, new: 7, version: 3)
        #expect(record.json == """
            {"actor":"ana","claimed_actor":"mallory","key":"limit","new":7,"old":null,\
            "time":"2026-11-27T10:00:00.000Z","verified":true,"version":3}
            """)
        #expect(AuditRecord(json: try Value(json: record.json)) == record)
    }

    @Test func anUnverifiedRecordWritesVerifiedFalseAndNoClaim() throws {
        let record = AuditRecord(time: Self.time, actor: "cli:bob", key: "limit", old: 7, new: nil, version: 4)
        #expect(record.json == """
            {"actor":"cli:bob","key":"limit","new":null,"old":7,"time":"2026-11-27T10:00:00.000Z","verified":false,\
            "version":4}
            """)
        let read = try #require(AuditRecord(json: try Value(json: record.json)))
        #expect(read == record)
        #expect(read.claimedActor == nil)
        #expect(!read.verified)
    }

    @Test func aRecordFromBeforeAttributionReadsAsUnverified() throws {
        let old = #"{"actor":"alice","key":"limit","new":7,"old":null,"time":"2026-11-20T10:00:00.000Z","version":1}"#
        let record = try #require(AuditRecord(json: try Value(json: old)))
        #expect(record.attribution == .unverified("alice"))
    }

    @Test func anExpiryEntryKeepsTheAttributionOfTheRecordThatSetIt() throws {
        let record = AuditRecord(time: Self.time, actor: "ana", claimedActor: "mallory", verified: true, key: "limit",
                                 old: nil, new: 7, version: 1, expiresAt: "2026-11-27T11:00:00.000Z")
        let history = AuditRecord.withExpiries([record], now: try #require(Timestamp.parse("2026-11-28T00:00:00Z")))
        #expect(history.map(\.event) == [.change, .expired])
        #expect(history.last?.attribution == record.attribution)
    }
}
