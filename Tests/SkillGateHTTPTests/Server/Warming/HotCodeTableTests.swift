@testable import SkillGateHTTP
import Testing

/// The hot-code table's text form (decision 0054): entries, ranges, comments, and a clear error for anything else.
@Suite struct HotCodeTableTests {
    @Test func readsFunctionsAndLibrariesWithRanges() throws {
        let table = try HotCodeTable(parsing: """
            # a comment, then a blank line

            F 00000000000000ff 0-2,5   # trailing comment
            L libexample.so.1 A1b2 10,1e-1f
            """)
        #expect(table.functions == [HotCodeTable.Function(symbolHash: 0xff, lines: 0..<4)])
        #expect(table.libraries == [HotCodeTable.Library(name: "libexample.so.1", buildID: "a1b2", lines: 4..<7)])
        #expect(table.lines == [0, 1, 2, 5, 0x10, 0x1e, 0x1f])
    }

    @Test func entriesBelongToThePhaseAboveThem() throws {
        let table = try HotCodeTable(parsing: """
            F 0000000000000001 0
            P answer
            F 0000000000000001 1
            L libexample.so.1 a1b2 2
            P request
            L libexample.so.1 a1b2 3
            """)
        #expect(table.functions.map(\.phase) == [.request, .answer], "entries before any P line are the request's")
        #expect(table.libraries.map(\.phase) == [.answer, .request])
        #expect(table.lines == [0, 1, 2, 3])
    }

    @Test(arguments: [
        ("F 12 0", 1, "not a symbol hash"),
        ("\nF 00000000000000ff 3-1", 2, "not a hexadecimal line number or range"),
        ("F 00000000000000ff x", 1, "not a hexadecimal line number or range"),
        ("L libexample.so.1 a1b 0", 1, "not hexadecimal bytes"),
        ("X something 0", 1, "expected \"P <phase>\", \"F <symbol hash> <lines>\""),
        ("F 00000000000000ff", 1, "expected \"P <phase>\", \"F <symbol hash> <lines>\""),
        ("F 00000000000000ff 0\nP reply", 2, "\"reply\" is not a phase (request or answer)"),
    ])
    func rejectsMalformedEntriesNamingTheLine(text: String, line: Int, problem: String) {
        #expect {
            _ = try HotCodeTable(parsing: text)
        } throws: { error in
            guard let error = error as? HotCodeTableError else { return false }
            return error.line == line && error.problem.contains(problem) && error.description.contains("regenerate the table")
        }
    }

    /// The script that writes the table (`Bench/profile/hot_code.py`) computes the same hash: FNV-1a, 64 bits.
    @Test(arguments: [("", 0xcbf2_9ce4_8422_2325 as UInt64), ("a", 0xaf63_dc4c_8601_ec8c), ("foobar", 0x8594_4171_f739_67e8)])
    func symbolHashIsFNV1a64(name: String, hash: UInt64) {
        #expect(HotCodeTable.symbolHash(name.utf8) == hash)
    }
}
