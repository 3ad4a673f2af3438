import Testing
import YAML

/// Plain scalars are typed by YAML 1.2's core schema, and every scalar keeps its source text.
struct CoreSchemaTests {
    @Test(arguments: [
        ("true", Scalar.Value.bool(true)), ("False", .bool(false)), ("TRUE", .bool(true)),
        ("yes", .string), ("no", .string), ("on", .string), ("off", .string), ("y", .string),
        ("null", .null), ("~", .null), ("", .null), ("NULL", .null), ("nULL", .string),
        ("0", .int(0)), ("-17", .int(-17)), ("+5", .int(5)), ("0x1F", .int(31)), ("0o17", .int(15)),
        ("0b101", .string), ("012", .int(12)), ("1_000", .string),
        ("1e3", .double(1000)), ("1.5", .double(1.5)), ("-.5", .double(-0.5)), ("1.", .double(1)),
        (".inf", .double(.infinity)), ("-.Inf", .double(-.infinity)), ("+.INF", .double(.infinity)),
        ("2027-03-01", .string), ("1.2.3", .string), ("0x", .string), (".", .string), ("-", .string),
        ("99999999999999999999", .double(1e20)),
    ])
    func resolvesPlainScalars(text: String, expected: Scalar.Value) {
        #expect(Scalar.Value.resolve(plain: text) == expected)
    }

    @Test func nanIsADouble() {
        guard case .double(let value) = Scalar.Value.resolve(plain: ".nan") else {
            Issue.record("expected a double")
            return
        }
        #expect(value.isNaN)
    }

    @Test func quotedScalarsAreStringsAndKeepText() throws {
        let document = YAMLParser.parse(Array("a: 'true'\nb: \"1.10\"\nc: 1.10\n".utf8), file: "t.yaml")
        let pairs = try #require(document.root?.pairs)
        #expect(pairs[0].value.scalar?.value == .string)
        #expect(pairs[1].value.scalar?.text == "1.10")
        #expect(pairs[2].value.scalar?.text == "1.10")
        #expect(pairs[2].value.scalar?.value == .double(1.1))
    }

    @Test func explicitCoreTags() throws {
        let document = YAMLParser.parse(Array("a: !!str 12\nb: !!float 3\nc: !!int nope\n".utf8), file: "t.yaml")
        #expect(document.root == nil)
        #expect(document.problems.first?.message == "'nope' is not a valid value for tag !!int")
        let ok = YAMLParser.parse(Array("a: !!str 12\nb: !!float 3\n".utf8), file: "t.yaml")
        let pairs = try #require(ok.root?.pairs)
        #expect(pairs[0].value.scalar?.value == .string)
        #expect(pairs[1].value.scalar?.value == .double(3))
    }
}
