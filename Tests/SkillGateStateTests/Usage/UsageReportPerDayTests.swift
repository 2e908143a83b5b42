import Foundation
import Testing
import SkillGateCore
@testable import SkillGateState

/// The usage report split by UTC day (the console's per-day charts): the same sums as the whole report, per day.
@Suite struct UsageReportPerDayTests {
    @Test(arguments: UsageGrouping.allCases)
    func eachDaysGroupsAddUpToTheWholeReport(_ grouping: UsageGrouping) throws {
        try UsageLedgerStoreTests.withStore { store in
            var records = [
                UsageLedgerStoreTests.row(.run, model: "p/strong", input: 30, cost: 300),
                UsageLedgerStoreTests.row(.call, model: "p/light", input: 10, cost: 100),
                UsageLedgerStoreTests.row(.call, model: "p/strong", input: 20, cost: 200),
                UsageLedgerStoreTests.row(.request, model: "p/light", input: 5, cost: 50, outcome: "upstream_timeout", day: 1),
                UsageLedgerStoreTests.row(.request, model: "p/light", input: 7, cost: 70, day: 2),
            ]
            records[4].scenario = "support"
            records[4].tokenName = "ci"
            try store.recordUsage(records)
            let since = Date(millisecondsSince1970: 0)
            let perDay = try store.usageReportPerDay(since: since, by: grouping)
            #expect(perDay.map(\.day) == perDay.map(\.day).sorted(), "day by day")
            #expect(Set(perDay.map(\.day)) == ["2026-05-28", "2026-05-29", "2026-05-30"])
            // Summing each key over the days gives the whole report.
            var summed: [String: (requests: Int, input: Int, cost: Int64)] = [:]
            for r in perDay {
                let s = summed[r.row.key] ?? (0, 0, 0)
                summed[r.row.key] = (s.requests + r.row.requests, s.input + r.row.inputTokens, s.cost + r.row.costMicrodollars)
            }
            let whole = try store.usageReport(since: since, by: grouping)
            #expect(Set(summed.keys) == Set(whole.map(\.key)))
            for row in whole {
                #expect(summed[row.key]?.requests == row.requests && summed[row.key]?.input == row.inputTokens && summed[row.key]?.cost == row.costMicrodollars,
                        "\(grouping) \(row.key)")
            }
            let firstDay = perDay.filter { $0.day == "2026-05-28" }
            #expect(firstDay.map(\.row.costMicrodollars) == firstDay.map(\.row.costMicrodollars).sorted(by: >), "largest cost first within a day")
            #expect(try store.usageReportPerDay(since: Date(millisecondsSince1970: 1_780_000_000_000 + 2 * 86_400_000), by: grouping)
                .allSatisfy { $0.day == "2026-05-30" })
        }
    }
}
