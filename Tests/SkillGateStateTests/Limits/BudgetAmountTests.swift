import Testing
@testable import SkillGateState

/// Budgets are read only as plain decimal dollars, to the microdollar, up to a billion (decision 0103): `0x10` was
/// read as $16, `1e-12` as a budget of no money at all.
@Suite struct BudgetAmountTests {
    @Test(arguments: [
        ("0", 0), ("5", 5_000_000), ("5.25", 5_250_000), ("0.01", 10_000), ("12.50", 12_500_000), ("0.000001", 1),
        ("007", 7_000_000), ("999999999.999999", 999_999_999_999_999), ("1000000000", 1_000_000_000_000_000),
        ("1000000000.000000", 1_000_000_000_000_000),
    ] as [(String, Int64)])
    func plainDecimalDollarsAreReadExactly(_ text: String, _ micro: Int64) throws {
        #expect(try BudgetAmount.microdollars(text) == micro)
        #expect(try BudgetAmount.dollars(text) == Double(micro) / 1_000_000)
    }

    @Test(arguments: ["0x10", "0X1p4", "+5", "-5", "-0", "1e-12", "5e2", "1E3", "inf", "nan", "Infinity", "", ".", "5.", ".5",
                      "5.2.3", " 5", "5 ", "5,25", "$5", "٥", "５", "1_000"])
    func anythingElseIsNotPlainDecimal(_ text: String) {
        #expect(throws: BudgetAmount.Refusal.notPlainDecimal) { try BudgetAmount.microdollars(text) }
    }

    @Test(arguments: ["0.0000001", "0.000000000001", "5.2500001"])
    func finerThanAMicrodollarIsRefused(_ text: String) {
        #expect(throws: BudgetAmount.Refusal.finerThanAMicrodollar) { try BudgetAmount.microdollars(text) }
    }

    @Test(arguments: ["1000000000.000001", "1000000001", "10000000000000", String(repeating: "9", count: 1000)])
    func overTheLargestIsRefused(_ text: String) {
        #expect(throws: BudgetAmount.Refusal.overTheLargest) { try BudgetAmount.microdollars(text) }
    }

    /// Every refusal says what to send instead.
    @Test func refusalsGiveAValidExample() {
        #expect(BudgetAmount.Refusal.notPlainDecimal.description.contains("like 5, 5.25 or 0.01"))
        #expect(BudgetAmount.Refusal.finerThanAMicrodollar.description.contains("like 5, 5.25 or 0.01"))
        #expect(BudgetAmount.Refusal.overTheLargest.description.contains("1000000000"))
    }

    /// A budget is shown as plain decimals (Swift writes 0.000001 as `1e-06`), so what is shown reads back.
    @Test(arguments: [(0, "0"), (5, "5"), (5.25, "5.25"), (0.01, "0.01"), (0.000001, "0.000001"), (0.00001, "0.00001"),
                      (1e9, "1000000000"), (123.4567891, "123.456789")] as [(Double, String)])
    func amountsAreShownAsPlainDecimals(_ usd: Double, _ text: String) throws {
        #expect(BudgetAmount.text(usd) == text)
        #expect(try BudgetAmount.dollars(BudgetAmount.text(usd)) == (usd * 1e6).rounded() / 1e6)
    }
}
