@testable import SkillGateHTTP
@testable import SkillGateServer
import Testing

/// The shipped hot-code table (`HotCode+Table.swift`, decision 0054) is well-formed and covers the request path: a
/// table that stopped parsing would silently turn code warming off.
@Suite struct HotCodeTests {
    @Test func shippedTableParsesAndCoversTheRequestPath() throws {
        let table = try HotCodeTable(parsing: HotCode.shippedTable)
        for phase in HotCodeTable.Phase.allCases {
            let functions = table.functions.filter { $0.phase == phase }
            #expect(functions.count > 500, "\(phase) functions: \(functions.count)")
            #expect(functions.reduce(0) { $0 + $1.lines.count } > 2000, "\(phase) lines")
            #expect(table.libraries.contains { $0.phase == phase && $0.name.hasPrefix("libevent-") },
                    "libevent's code is on both halves of every request's path")
            #expect(Set(functions.map(\.symbolHash)).count == functions.count, "one entry per function and phase")
        }
    }

    /// The warmer is placed in the test executable too; it is not the build the table was measured on, so few of its
    /// functions are found, but placing must succeed and every placed line must lie in mapped code.
    @Test func warmerPlacesInAnyBuild() throws {
        let warmer = try HotCode.warmer.get()
        #expect(warmer.resolution.functionsListed > 1000)
        #expect(warmer.resolution.requestLines + warmer.resolution.answerLines <= (try HotCodeTable(parsing: HotCode.shippedTable)).lines.count)
        warmer.warm(.request)
        warmer.warm(.answer)
    }
}
