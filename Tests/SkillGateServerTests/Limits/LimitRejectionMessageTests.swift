import Foundation
import Testing
@testable import SkillGateServer

/// What a client reads of a 429 over a budget: what was spent of how much, named once, in figures a tiny budget
/// does not round to nothing.
@Suite struct LimitRejectionMessageTests {
    @Test func aBudgetsMessageNamesTheLimitOnceWithItsFigures() {
        let rejection = LimitRejection(subject: LimitSubject(kind: .token, id: "tok_1", name: "app"), limit: .budgetPerDay,
                                       max: 10, used: 12, at: Date(timeIntervalSince1970: 1_800_000_000))
        let message = rejection.message
        #expect(message.contains("has spent $0.000012 of its $0.000010 daily budget (budget_usd_per_day $0.000010)"), "\(message)")
        #expect(message.components(separatedBy: "budget_usd_per_day").count == 2, "named once: \(message)")
    }

    @Test(arguments: [(Int64(10), "$0.000010"), (9_999, "$0.009999"), (10_000, "$0.0100"), (999_999, "$1.0000"), (1_000_000, "$1.00"), (12_345_678, "$12.35")])
    func dollarsKeepWhatMatters(_ micro: Int64, _ shown: String) {
        #expect(LimitRejection.usd(micro) == shown)
    }
}
