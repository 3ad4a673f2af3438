import Testing
@testable import Switchboard

/// Text with nothing in it (a `SWITCHBOARD_…` variable set to nothing, `set KEY ""`) is no value for any type but
/// string, and is said to be empty: never "found null", which the user did not write.
struct EmptyValueTextTests {
    @Test(arguments: [ValueType.bool, .int, .double, .list, .object])
    func emptyTextIsSaidToBeEmpty(type: ValueType) {
        for text in ["", "  "] {
            guard case .failure(let problem) = Value.parse(text, as: type) else {
                Issue.record("'\(text)' was read as \(type)")
                continue
            }
            #expect(problem.message == "expected \(type.withArticle), found nothing (the value is empty)")
            #expect(problem.hint == "give a value, or leave it unset")
        }
    }

    @Test func emptyTextIsAnEmptyString() throws {
        #expect(try Value.parse("", as: .string).get() == .string(""))
    }
}
