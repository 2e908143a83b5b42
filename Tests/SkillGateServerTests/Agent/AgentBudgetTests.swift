import Foundation
import Testing
import SkillGateCore
import SkillGateSkills
import SkillGateState
@testable import SkillGateServer

/// A run stops between model calls once a budget is used up, counting what the run spent so far (decision 0113).
@Suite struct AgentBudgetTests {
    static let app = LimitSubject(kind: .token, id: "tok_1", name: "app")

    /// A token with $0.0025 a day left and a model that calls a skill forever at $0.001 a call: the run stops after its
    /// third call (before, it ran all ten `max_iterations` and spent four times the budget), without running that
    /// call's skill, and says which budget.
    @Test func aRunStopsOnceItsSpendUsesUpTheBudget() async throws {
        let counters = LimitCounters()
        let checks = [(Self.app, TokenLimits(budgetUSDPerDay: 0.0025))]
        let ticket = try await counters.admit(checks, stream: true)
        let clock = TestSkill.fixed("clock", "07:55", parameters: ["type": "object", "properties": ["n": ["type": "integer"]]])
        let model = ScriptedModel([.calls([("clock", #"{"n":1}"#)]), .calls([("clock", #"{"n":2}"#)]), .calls([("clock", #"{"n":3}"#)]),
                                   .calls([("clock", #"{"n":4}"#)]), .text("never")])
        var loop = AgentFixtures.loop([clock], model: model, events: EventLog(), maxIterations: 10)
        loop.budgetUsedUp = { spent in counters.budgetUsedUp(checks, pendingMicrodollars: Int64((spent * 1e6).rounded(.up))).map(\.message) }
        let outcome = try await loop.run(AgentFixtures.request([clock]))
        #expect(outcome.finishReason == "budget")
        #expect(outcome.iterations == 3 && model.requests.count == 3)
        #expect(outcome.skillsRun.count == 2)
        #expect(outcome.message?.contains("budget: token \"app\"") == true, "\(outcome.message ?? "")")
        #expect(outcome.response.finishReason == .length && outcome.response.text == outcome.message)
        counters.release(ticket, tokens: 45, costMicrodollars: 3_000)
    }

    /// What was spent before the run counts too; a token without a budget, or a scenario never admitted, has none to
    /// use up.
    @Test func spendBeforeTheRunCountsAndNoBudgetNeverStops() async throws {
        let counters = LimitCounters()
        let checks = [(Self.app, TokenLimits(budgetUSDPerDay: 0.01))]
        let earlier = try await counters.admit(checks, stream: false)
        counters.release(earlier, tokens: 10, costMicrodollars: 9_000)
        #expect(counters.budgetUsedUp(checks, pendingMicrodollars: 999) == nil)
        let over = try #require(counters.budgetUsedUp(checks, pendingMicrodollars: 1_000))
        #expect(over.limit == .budgetPerDay && over.used == 10_000)
        #expect(counters.budgetUsedUp([(Self.app, TokenLimits(requestsPerMinute: 5))], pendingMicrodollars: 1_000_000) == nil)
        let unseen = LimitSubject(kind: .scenario, id: "s", name: "s")
        #expect(counters.budgetUsedUp([(unseen, TokenLimits(budgetUSDPerDay: 0.001))], pendingMicrodollars: 1) == nil)
    }
}
