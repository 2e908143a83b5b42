import Testing
@testable import SkillGateEval

@Suite struct EvalTableTests {
    @Test func formatsRatiosPercentsAndFixedDecimals() {
        #expect(EvalTable.ratio(25, 30) == "83.3% (25/30)")
        #expect(EvalTable.ratio(0, 0) == "-")
        #expect(EvalTable.percent(1) == "100.0%")
        #expect(EvalTable.fixed(3.14159, 2) == "3.14")
        #expect(EvalTable.fixed(-0.004, 2) == "0.00")
        #expect(EvalTable.fixed(-1.5, 1) == "-1.5")
        #expect(EvalTable.fixed(2, 0) == "2")
    }

    @Test func alignsTheFirstColumnLeftAndTheRestRight() {
        var t = EvalTable(["slice", "agreement"])
        t.add(["all", "90.0% (9/10)"])
        t.add(["en/strong", "5.0%"])
        #expect(t.render() == "slice         agreement\nall        90.0% (9/10)\nen/strong          5.0%\n")
    }
}
