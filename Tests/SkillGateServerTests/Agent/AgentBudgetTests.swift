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
        let spending = RunSpending(counters: counters, subjects: { checks })
        loop.budgetUsedUp = { await spending.usedUp(afterSpending: $0, tokens: 0) }
        let outcome = try await loop.run(AgentFixtures.request([clock]))
        #expect(outcome.finishReason == "budget")
        #expect(outcome.iterations == 3 && model.requests.count == 3)
        #expect(outcome.skillsRun.count == 2)
        #expect(outcome.message?.contains("budget: token \"app\"") == true, "\(outcome.message ?? "")")
        #expect(outcome.response.finishReason == .length && outcome.response.text == outcome.message)
        #expect(spending.counted.microdollars == 3_000)
        counters.release(ticket, tokens: 45, costMicrodollars: 3_000 - spending.counted.microdollars)
    }

    /// Runs under way see each other's spend (decision 0146): two runs on a token with $0.0025 left, each model calling a
    /// skill forever at $0.001 a call, make four calls between them (the third uses the budget up, the fourth was the
    /// other run's call under way), where each used to compare the budget with its own spend only and both made three.
    /// While they run, a new request is refused for the budget; once released, the spend is counted once.
    @Test func runsUnderWaySeeEachOthersSpend() async throws {
        let counters = LimitCounters()
        let checks = [(Self.app, TokenLimits(budgetUSDPerDay: 0.0025))]
        let clock = TestSkill.fixed("clock", "07:55", parameters: ["type": "object", "properties": ["n": ["type": "integer"]]])
        let models = (0..<2).map { _ in ScriptedModel([.calls([("clock", #"{"n":1}"#)])]) }
        let tickets = try await [counters.admit(checks, stream: true), counters.admit(checks, stream: true)]
        let spendings = (0..<2).map { _ in RunSpending(counters: counters, subjects: { checks }) }
        // Each loop's model call yields once, so the two runs interleave: call, check, call, check.
        let outcomes = try await withThrowingTaskGroup(of: AgentOutcome.self) { group in
            for k in 0..<2 {
                var loop = AgentFixtures.loop([clock], model: models[k], events: EventLog(), maxIterations: 10)
                let model = loop.model
                loop.model = { request, iteration, emit in
                    await Task.yield()
                    return try await model(request, iteration, emit)
                }
                loop.budgetUsedUp = { await spendings[k].usedUp(afterSpending: $0, tokens: 0) }
                group.addTask { try await loop.run(AgentFixtures.request([clock])) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.allSatisfy { $0.finishReason == "budget" })
        let calls = models.map(\.requests.count)
        #expect(calls.reduce(0, +) <= 4, "two runs made \(calls) model calls on a budget of two and a half")
        await #expect(throws: LimitRejection.self, "a new request was admitted while the runs' spend used the budget up") {
            try await counters.admit(checks, stream: false)
        }
        for (k, spending) in spendings.enumerated() {
            // The release counts the rest of each run's cost (nothing here: every call was counted as it was paid for).
            counters.release(tickets[k], tokens: 15 * calls[k], costMicrodollars: Int64(1_000 * calls[k]) - spending.counted.microdollars)
        }
        let status = await counters.status(Self.app, checks[0].1)
        #expect(status.first { $0.limit == .budgetPerDay }?.used == Int64(1_000 * calls.reduce(0, +)), "the runs' spend was counted other than once")
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
