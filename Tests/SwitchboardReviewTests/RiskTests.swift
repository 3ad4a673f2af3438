import Foundation
import Switchboard
import SwitchboardReview
import Testing

/// Each breaking risk is named; what was not checked is noted.
@Suite struct RiskTests {
    static let base = """
        namespace: app
        flags:
          payments_v2:
            type: bool
            default: false
            owner: payments
          checkout:
            type: bool
            default: false
            requires: { flag: app.payments_v2, value: true }
        preferences:
          upload.max_mb:
            type: int
            default: 25
            max: 1000

        """

    static func stored(_ value: Value) -> StoredOverride {
        StoredOverride(value: value, actor: "tester", time: "2026-01-01T00:00:00Z", version: 1)
    }

    @Test func aStoredOverrideThatNoLongerFits() throws {
        let head = Self.base.replacingOccurrences(of: "max: 1000", with: "max: 500")
        let result = try review(Self.base, head, stored: ["app.upload.max_mb": Self.stored(.int(700))])
        #expect(result.breaking == [BreakingRisk(
            key: "app.upload.max_mb",
            reason: "stored override 700 no longer fits: 700 is above the maximum 500 of app.upload.max_mb")])
    }

    @Test func aStoredOverrideThatStillFitsIsNoRisk() throws {
        let head = Self.base.replacingOccurrences(of: "max: 1000", with: "max: 500")
        #expect(try review(Self.base, head, stored: ["app.upload.max_mb": Self.stored(.int(300))]).breaking.isEmpty)
    }

    @Test func aStoredOverrideWhoseKeyIsGone() throws {
        let head = Self.base.replacingOccurrences(of: "preferences:\n  upload.max_mb:\n    type: int\n"
                                                    + "    default: 25\n    max: 1000\n", with: "")
        let result = try review(Self.base, head, stored: ["app.upload.max_mb": Self.stored(.int(700))])
        #expect(result.breaking == [BreakingRisk(key: "app.upload.max_mb",
                                                 reason: "stored override 700 is for a key this change removes")])
        #expect(result.notes == [Review.referencesNote])
    }

    // A type change breaks every reader of the old type, with no stored override needed to show it.
    @Test func aTypeChangeIsBreaking() throws {
        let head = Self.base.replacingOccurrences(of: "    type: int\n    default: 25\n    max: 1000",
                                                  with: "    type: double\n    default: 25.5")
        let result = try review(Self.base, head)
        #expect(result.breaking == [BreakingRisk(
            key: "app.upload.max_mb",
            reason: "its type changes from int to double: code that reads it as an int (a generated key, a typed "
                + "lookup, an OpenFeature client) gets its own default instead, and a value set for it elsewhere "
                + "may no longer fit")])
    }

    @Test func aRemovalThatLooksLikeARename() throws {
        let head = Self.base.replacingOccurrences(of: "  payments_v2:", with: "  payments_next:")
            .replacingOccurrences(of: "flag: app.payments_v2", with: "flag: app.payments_next")
        let result = try review(Self.base, head)
        #expect(result.breaking == [BreakingRisk(
            key: "app.payments_v2",
            reason: "removed while app.payments_next was added with the same type (bool) and owner payments: "
                + "a rename without `renamed_from: [app.payments_v2]` drops its stored overrides")])
    }

    @Test func aRenameWithRenamedFromIsNoRisk() throws {
        let head = Self.base
            .replacingOccurrences(of: "  payments_v2:", with: "  payments_next:\n    renamed_from: [app.payments_v2]")
            .replacingOccurrences(of: "flag: app.payments_v2", with: "flag: app.payments_next")
        let result = try review(Self.base, head, stored: ["app.payments_v2": Self.stored(.bool(true))])
        #expect(result.breaking.isEmpty)
        #expect(result.changes.map(\.change) == [.modified, .renamed])
    }

    @Test func aPrerequisiteOnARemovedFlag() throws {
        let head = Self.base.replacingOccurrences(of: "  payments_v2:\n    type: bool\n    default: false\n"
                                                    + "    owner: payments\n", with: "")
        let result = try review(Self.base, head)
        #expect(result.breaking == [BreakingRisk(
            key: "app.checkout",
            reason: "requires app.payments_v2, which this change removes: the definition no longer loads")])
        #expect(result.changes.map { "\($0.key) \($0.change.rawValue) \($0.fields)" }
                    == ["app.checkout modified [\"prerequisites\"]", "app.payments_v2 removed []"])
    }
}
