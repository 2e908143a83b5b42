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

    /// The admin API and the config read budgets as plain decimal dollars too (decision 0103): an exponent, a sign, a
    /// fraction finer than a microdollar or a string is refused, naming the key and a valid example.
    @Test(arguments: [("1e-12", "no sign, exponent"), ("5e2", "no sign, exponent"), ("-0", "no sign, exponent"),
                      ("1E3", "no sign, exponent"), ("0.0000001", "more than 6 digits after the point"),
                      ("true", "no sign, exponent")])
    func aBudgetThatIsNotPlainDecimalDollarsIsRefused(_ value: String, _ problem: String) throws {
        for key in ["budget_usd_per_day", "budget_usd_per_month"] {
            let json = try JSONValue.parse("{\"\(key)\":\(value)}")
            do {
                let read = try TokenLimits(json: json, where: "token_limits")
                Issue.record("\(value) was read as \(read)")
            } catch {
                #expect(error.description.contains("token_limits.\(key)") && error.description.contains(problem), "\(error.description)")
                #expect(error.description.contains("like 5, 5.25 or 0.01") && error.description.contains("(got \(value))"), "\(error.description)")
            }
        }
    }

    /// A budget written as text is told to drop the quotes (before: "written as plain digits ... (got \"5\")", which it
    /// was); `"none"`, as the CLI and the README have it, is no budget (before: refused in the config).
    @Test func aBudgetAsTextIsToldToDropTheQuotesAndNoneIsNoBudget() throws {
        for key in ["budget_usd_per_day", "budget_usd_per_month"] {
            for none in ["none", "None", "NONE"] {
                #expect(try TokenLimits(json: try JSONValue.parse("{\"\(key)\":\"\(none)\",\"requests_per_minute\":3}"), where: "limits")
                        == TokenLimits(requestsPerMinute: 3))
            }
            for text in ["\"5\"", "\"unlimited\""] {
                let json = try JSONValue.parse("{\"\(key)\":\(text)}")
                do {
                    let read = try TokenLimits(json: json, where: "token_limits")
                    Issue.record("\(text) was read as \(read)")
                } catch {
                    #expect(error.description.contains("token_limits.\(key) must be a JSON number, not text") && error.description.contains("without quotes")
                            && error.description.contains("\"none\""), "\(error.description)")
                }
            }
        }
    }

    /// Budgets are written as plain decimals, so what `GET` shows can be sent back (Swift writes 0.000001 as `1e-06`).
    @Test func budgetsAreWrittenAsPlainDecimals() throws {
        let limits = TokenLimits(budgetUSDPerDay: 0.000001, budgetUSDPerMonth: 0.00005)
        #expect(limits.json().serialized() == #"{"budget_usd_per_day":0.000001,"budget_usd_per_month":0.00005}"#)
        #expect(try TokenLimits(json: limits.json(), where: "limits") == limits)
    }

    /// `null` leaves a limit unset, as the admin API's own example (`"budget_usd_per_day":null`) and the README say;
    /// it was refused as "not a number" (found with decision 0103).
    @Test func nullLeavesALimitUnset() throws {
        let json = try JSONValue.parse(#"{"requests_per_minute":60,"budget_usd_per_day":null,"tokens_per_minute":null}"#)
        #expect(try TokenLimits(json: json, where: "limits") == TokenLimits(requestsPerMinute: 60))
    }
}

