import Testing
@testable import SkillGateServer

/// `x-skillgate-skills` stays small however many tools a request declares (decision 0081): each list of names is
/// bounded and ends with `+N` for the names it leaves out; the log line keeps them all.
@Suite struct SkillDecisionHeaderTests {
    static func names(_ count: Int, _ prefix: String = "lookup_customer_record_") -> [String] { (0..<count).map { "\(prefix)\($0)" } }

    /// The names a header list shows, and the number its `+N` mark says it left out (0 without a mark).
    static func parse(_ list: Substring) -> (shown: [String], leftOut: Int) {
        var names = list.split(separator: ",").map(String.init)
        guard let last = names.last, last.hasPrefix("+"), let n = Int(last.dropFirst()) else { return (names, 0) }
        names.removeLast()
        return (names, n)
    }

    static func list(_ key: String, in header: String) -> Substring? {
        header.split(separator: ";").map { $0.drop { $0 == " " } }.first { $0.hasPrefix(key + "=") }?.dropFirst(key.count + 1)
    }

    @Test func shortListsAreWrittenWhole() {
        let decision = SkillDecision(declared: 3, visible: ["get_weather"], removed: ["delete_files"], cut: ["send_email"], limit: 1)
        #expect(decision.header == "visible=get_weather; removed=delete_files; cut=send_email; max=1")
    }

    @Test(arguments: [(visible: 8, removed: 0, cut: 992), (visible: 2_000, removed: 0, cut: 0), (visible: 3, removed: 500, cut: 600)])
    func longListsAreCutWithTheCountLeftOut(visible: Int, removed: Int, cut: Int) throws {
        let decision = SkillDecision(declared: visible + removed + cut, visible: Self.names(visible, "v_tool_"),
                                     removed: Self.names(removed, "r_tool_"), cut: Self.names(cut, "c_tool_"), limit: 8)
        let header = try #require(decision.header)
        #expect(header.utf8.count <= 2_200, "a header of \(header.utf8.count) bytes")
        let budgets = SkillDecision.headerListBytes
        for (key, all, budget) in [("visible", Self.names(visible, "v_tool_"), budgets.visible),
                                   ("removed", Self.names(removed, "r_tool_"), budgets.removed),
                                   ("cut", Self.names(cut, "c_tool_"), budgets.cut)] where !all.isEmpty {
            let written = try #require(Self.list(key, in: header))
            #expect(written.utf8.count <= budget, "\(key)= takes \(written.utf8.count) bytes")
            let (shown, leftOut) = Self.parse(written)
            #expect(shown == Array(all.prefix(shown.count)), "\(key)= shows the first names, in order")
            #expect(shown.count + leftOut == all.count, "\(key)= accounts for every name")
            #expect(leftOut > 0 || all.joined(separator: ",").utf8.count <= budget)
        }
        #expect(header.hasSuffix("; max=8"))
    }

    @Test func aListThatJustFitsHasNoMark() {
        // 1,024 bytes exactly: 63 names of 15 bytes, one of 16, and 63 commas.
        let names = (0..<63).map { "tool_" + String(repeating: "0", count: 10 - String($0).count) + String($0) } + ["final_tool_16_by"]
        #expect(names.joined(separator: ",").utf8.count == SkillDecision.headerListBytes.visible)
        let header = SkillDecision(declared: names.count, visible: names).header
        #expect(header == "visible=" + names.joined(separator: ","))
        let oneMore = SkillDecision(declared: names.count + 1, visible: names + ["y"]).header ?? ""
        #expect(Self.parse(Self.list("visible", in: oneMore) ?? "").leftOut > 0)
    }

    @Test func aNameLongerThanTheBudgetLeavesOnlyTheMark() {
        let long = String(repeating: "n", count: 600)
        let decision = SkillDecision(declared: 2, visible: ["a"], cut: [long, "b"], limit: 1)
        #expect(decision.header == "visible=a; cut=+2; max=1")
    }
}
