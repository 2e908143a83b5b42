import Testing
import SkillGateCore
@testable import SkillGateState

/// Budgets have a largest value (decision 0096): a budget of 1e13 dollars, meant as "unlimited", left 64 bits as
/// microdollars and stopped the gateway on the token's next request.
@Suite struct TokenLimitsTests {
    @Test(arguments: ["budget_usd_per_day", "budget_usd_per_month"])
    func aBudgetOverTheLargestIsRefused(_ key: String) throws {
        #expect(throws: TokenError.self) { try TokenLimits(json: [key: 1e13], where: "limits") }
        do {
            _ = try TokenLimits(json: [key: 1_000_000_000.01], where: "limits")
            Issue.record("accepted")
        } catch {
            #expect(error.description.contains("limits.\(key) is over the largest budget, 1000000000 US dollars"), "\(error.description)")
        }
        let largest = try TokenLimits(json: [key: 1e9], where: "limits")
        #expect((largest.budgetUSDPerDay ?? largest.budgetUSDPerMonth) == 1e9)
    }

    /// Limits stored before the largest budget existed keep the token's other limits: the budget is held at it.
    @Test func storedLimitsHoldTheirBudgetAtTheLargest() throws {
        let stored = try TokenLimits(json: ["requests_per_minute": 5, "budget_usd_per_day": 1e13], where: "stored limits", holdingBudgets: true)
        #expect(stored == TokenLimits(requestsPerMinute: 5, budgetUSDPerDay: TokenLimits.maximumBudgetUSD))
        #expect(SQLiteStateStore.decodeLimits(#"{"requests_per_minute":5,"budget_usd_per_month":1e300}"#)
                == TokenLimits(requestsPerMinute: 5, budgetUSDPerMonth: TokenLimits.maximumBudgetUSD))
    }

    /// Dollars to microdollars never traps: at the largest budget it is exact, past 64 bits it holds, NaN is unknown.
    @Test func microdollarsHoldWithin64Bits() {
        #expect(UsageRecord.microdollars(TokenLimits.maximumBudgetUSD) == 1_000_000_000_000_000)
        #expect(UsageRecord.microdollars(1e13) == .max)
        #expect(UsageRecord.microdollars(-1e300) == .min)
        #expect(UsageRecord.microdollars(.nan) == nil)
        #expect(UsageRecord.microdollars(0.0000015) == 2)
    }
}
