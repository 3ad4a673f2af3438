import Foundation
@testable import SwitchboardServer
import Testing

@Suite struct EntityTagTests {
    let tag = EntityTag(hashing: Array(#"{"flags":[]}"#.utf8))

    @Test func changesWithEveryByteOfTheBody() {
        let body = Array(String(repeating: "0123456789abcdef", count: 8).utf8)
        var tags = Set([EntityTag(hashing: body)])
        for index in body.indices {
            var changed = body
            changed[index] ^= 0x80
            tags.insert(EntityTag(hashing: changed))
        }
        #expect(tags.count == body.count + 1)
        #expect(EntityTag(hashing: Array(body.dropLast())) != EntityTag(hashing: body))
    }

    @Test func changesWithTheBody() {
        #expect(tag == EntityTag(hashing: Array(#"{"flags":[]}"#.utf8)))
        #expect(tag != EntityTag(hashing: Array(#"{"flags":[1]}"#.utf8)))
        #expect(tag.description == "\"\(tag.opaque)\"")
    }

    @Test(arguments: [
        ("\"TAG\"", true),
        ("W/\"TAG\"", true),
        ("\"other\", \"TAG\"", true),
        ("\"other\",W/\"TAG\"", true),
        ("*", true),
        ("TAG", true),
        ("\"other\"", false),
        ("", false),
        ("\"TAG-suffix\"", false),
    ])
    func matchesIfNoneMatch(header: String, matches: Bool) {
        let value = header.replacingOccurrences(of: "TAG", with: tag.opaque)
        #expect(tag.isMatched(byIfNoneMatch: [value]) == matches)
    }

    @Test func matchesAcrossSeveralHeaderLines() {
        #expect(tag.isMatched(byIfNoneMatch: ["\"a\"", "\"\(tag.opaque)\""]))
        #expect(!tag.isMatched(byIfNoneMatch: [String]()))
    }

    @Test func readsTagsWithCommasInsideQuotes() {
        #expect(EntityTag.tags(in: #""a,b", W/"c" , d"#) == ["a,b", "c", "d"])
    }
}
