import Testing
@testable import SkillGateState

/// The COPY text format the ledger writes (no server needed; the round trip through a real PostgreSQL is in
/// `PostgresStateStoreTests.ledgerRowsKeepAwkwardTextAndNulls`).
@Suite struct PostgresCopyFormatTests {
    @Test(arguments: [0, 7, -7, 10, 1_780_000_000_000, Int64.max, Int64.min])
    func integersAreWrittenInDecimal(value: Int64) {
        var out: [UInt8] = [0x41]
        PostgresConnection.copyInteger(value, into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "A" + String(value))
    }

    @Test(arguments: [
        ("plain-id_1", "plain-id_1"), ("ünï 漢字", "ünï 漢字"), ("", ""),
        ("tab\there", "tab\\there"), ("a\nb\rc", "a\\nb\\rc"), ("back\\slash", "back\\\\slash"),
    ])
    func textIsEscapedOnlyWhereCOPYWouldMisreadIt(text: String, expected: String) {
        var out: [UInt8] = []
        PostgresConnection.copyField(text, into: &out)
        #expect(String(decoding: out, as: UTF8.self) == expected)
        out.removeAll()
        PostgresConnection.copyField(nil, into: &out)
        #expect(out == Array("\\N".utf8))
    }
}
