import Foundation
import SwitchboardTestSupport
import Testing

/// `switchboard list` fits its table to the terminal: `COLUMNS`, else the terminal's width, else 100 in a pipe;
/// cut cells end in `…`.
@Suite struct ListWidthTests {
    static let description = "Which checkout the customer sees, while the payments team measures conversion "
        + "against the old flow across every market and device."

    let project = makeProject(definitions: """
        namespace: checkout
        flags:
          new_flow:
            description: \(ListWidthTests.description)
            type: bool
            default: false
          address_form:
            description: Short.
            type: object
            default: { columns: 2, autocomplete: false, country_first: true, postcode_lookup: true }
        """)

    @Test(arguments: [nil, "80", "100", "120"])
    func everyLineFitsAndCutCellsEndInAnEllipsis(columns: String?) throws {
        let result = try runSwitchboard(["list", "--flags", project.flags],
                                        environment: columns.map { ["COLUMNS": $0] } ?? [:])
        #expect(result.status == 0)
        let width = columns.flatMap { Int($0) } ?? 100
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        for line in lines {
            #expect(line.count <= width, "\(line.count) > \(width): \(line)")
        }
        let flow = try #require(lines.first { $0.hasPrefix("checkout.new_flow") })
        #expect(flow.hasSuffix("…"))
        #expect(ListWidthTests.description.hasPrefix(flow.split(separator: "  ").last!.dropLast()))
        let form = try #require(lines.first { $0.hasPrefix("checkout.address_form") })
        #expect(form.contains("…") && form.hasSuffix("Short."))
    }

    @Test func aWideTerminalShowsEverything() throws {
        let result = try runSwitchboard(["list", "--flags", project.flags], environment: ["COLUMNS": "400"])
        #expect(result.stdout.contains(ListWidthTests.description + "\n"))
        #expect(!result.stdout.contains("…"))
    }

    @Test(arguments: ["", "0", "-5", "wide"])
    func aColumnsValueThatIsNoWidthIsIgnored(columns: String) throws {
        let result = try runSwitchboard(["list", "--flags", project.flags], environment: ["COLUMNS": columns])
        #expect(result.stdout.split(separator: "\n").allSatisfy { $0.count <= 100 })
    }
}
