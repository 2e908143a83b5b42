@testable import SkillGateHTTP
@testable import SkillGateServer
import Testing

/// The shipped hot-code table (`HotCode+Table.swift`, decision 0054) is well-formed and covers the request path: a
/// table that stopped parsing would silently turn code warming off.
@Suite struct HotCodeTests {
    @Test func shippedTableParsesAndCoversTheRequestPath() throws {
        let table = try HotCodeTable(parsing: HotCode.shippedTable)
        #expect(table.functions.count > 1000, "functions: \(table.functions.count)")
        #expect(table.lines.count > 5000, "lines: \(table.lines.count)")
        #expect(table.libraries.contains { $0.name.hasPrefix("libevent-") }, "libevent's code is on every request's path")
        #expect(Set(table.functions.map(\.symbolHash)).count == table.functions.count, "one entry per function")
    }

    /// The warmer is placed in the test executable too; it is not the build the table was measured on, so few of its
    /// functions are found, but placing must succeed and every placed line must lie in mapped code.
    @Test func warmerPlacesInAnyBuild() throws {
        let warmer = try HotCode.warmer.get()
        #expect(warmer.resolution.functionsListed > 1000)
        #expect(warmer.resolution.lines <= (try HotCodeTable(parsing: HotCode.shippedTable)).lines.count)
        warmer.warm()
    }
}
