import Testing
import SkillGateCore
import SkillGateSkills
import SkillGateState
@testable import SkillGateServer

/// The ledger rows of one request (`UsageRecord.rows(for:outcome:admitted:)`): one row for one model call, a run row with the
/// sums and a row per call for several — an agent run's calls, and a skill selector's call beside the answer.
@Suite struct UsageRecordRequestTests {
    static func entry(selection: SkillSelection? = nil, modelCalls: [ModelCallUsage] = [], agent: Bool = false) -> RequestLogEntry {
        var e = RequestLogEntry(requestId: "req_1", method: "POST", path: "/v1/chat/completions")
        e.tokenId = "tok_1"
        e.provider = "up"
        e.model = "up/light"
        e.status = 200
        e.usage = Usage(inputTokens: 100, outputTokens: 10)
        e.costUSD = 0.0001
        e.upstreamMs = 12
        if agent { e.agentIterations = modelCalls.count }
        e.modelCalls = modelCalls
        if let selection {
            var ranking = SkillRanking(cut: RelevanceCut(kept: ["a"], cut: ["b"], scores: [:]), mode: .lexical)
            ranking.selection = selection
            var decision = SkillDecision()
            decision.ranking = ranking
            e.skills = decision
        }
        return e
    }

    static let chose = SkillSelection(outcome: .chose(["a"]), model: "sel/chooser", usage: Usage(inputTokens: 400, outputTokens: 8), costUSD: 0.00002)

    @Test func aRequestOfOneModelCallIsOneRow() {
        let rows = UsageRecord.rows(for: Self.entry(), outcome: "ok", admitted: true)
        #expect(rows.map(\.kind) == [.request])
        #expect(rows.first?.usage.inputTokens == 100 && rows.first?.costMicrodollars == 100)
    }

    /// A request the response cache answered is a `cache_hit` row with no spend of its own (decision 0140); a selector's
    /// call before it is its one `call` row, and its spend.
    @Test func aCacheHitIsACacheHitRow() {
        var hit = Self.entry()
        (hit.usage, hit.costUSD, hit.upstreamMs, hit.cache) = (nil, nil, nil, .hit)
        let rows = UsageRecord.rows(for: hit, outcome: "ok", admitted: true)
        #expect(rows.map(\.kind) == [.cacheHit] && rows[0].kind.rawValue == "cache_hit")
        #expect(rows[0].usage == Usage() && rows[0].costMicrodollars == nil && rows[0].model == "up/light" && rows[0].outcome == "ok")
        var selected = Self.entry(selection: Self.chose)
        (selected.usage, selected.costUSD, selected.cache) = (nil, nil, .hit)
        let withSelector = UsageRecord.rows(for: selected, outcome: "ok", admitted: true)
        #expect(withSelector.map(\.kind) == [.cacheHit, .call])
        #expect(withSelector.map(\.model) == ["up/light", "sel/chooser"] && withSelector.map(\.usage.inputTokens) == [400, 400])
    }

    @Test func aSelectorsCallMakesARunOfTheAnswerAndTheSelector() {
        let rows = UsageRecord.rows(for: Self.entry(selection: Self.chose), outcome: "ok", admitted: true)
        #expect(rows.map(\.kind) == [.run, .call, .call])
        #expect(rows.map(\.callIndex) == [0, 1, 2])
        #expect(rows.map(\.model) == ["up/light", "up/light", "sel/chooser"])
        #expect(rows.map(\.provider) == ["up", "up", "sel"])
        #expect(rows.map(\.usage.inputTokens) == [500, 100, 400])
        #expect(rows.map(\.costMicrodollars) == [120, 100, 20])
        #expect(rows.map(\.durationMilliseconds) == [0, 12, 0])
    }

    @Test func anAgentRunGetsTheSelectorsCallAfterItsOwn() {
        let calls = [ModelCallUsage(provider: "up", model: "up/light", usage: Usage(inputTokens: 60, outputTokens: 5), costUSD: 0.00006),
                     ModelCallUsage(provider: "up", model: "up/light", usage: Usage(inputTokens: 40, outputTokens: 5), costUSD: 0.00004)]
        let rows = UsageRecord.rows(for: Self.entry(selection: Self.chose, modelCalls: calls, agent: true), outcome: "ok", admitted: true)
        #expect(rows.map(\.kind) == [.run, .call, .call, .call])
        #expect(rows.map(\.model) == ["up/light", "up/light", "up/light", "sel/chooser"])
        #expect(rows.map(\.usage.inputTokens) == [500, 60, 40, 400])
    }

    /// An agent run's calls written as each was paid for (`PaidCallRows`, decision 0148) are not written again with its
    /// row; every call row counts itself in the running totals, and the run's row says what they hold, so the totals
    /// count the run once however its calls were written.
    @Test func anAgentRunsCallsWrittenWhileItWentOnAreNotWrittenAgain() {
        let calls = [ModelCallUsage(provider: "up", model: "up/light", usage: Usage(inputTokens: 60, outputTokens: 5), costUSD: 0.00006),
                     ModelCallUsage(provider: "up", model: "up/light", usage: Usage(inputTokens: 40, outputTokens: 5), costUSD: 0.00004)]
        var e = Self.entry(selection: Self.chose, modelCalls: calls, agent: true)
        e.modelCallsWritten = 1
        let rows = UsageRecord.rows(for: e, outcome: "ok", admitted: true)
        #expect(rows.map(\.kind) == [.run, .call, .call])
        #expect(rows.map(\.callIndex) == [0, 2, 3])
        #expect(rows.dropFirst().allSatisfy(\.countsInRunningTotals) && !rows[0].countsInRunningTotals)
        #expect(rows[0].countedByCallRows == UsageSummary(inputTokens: 500, outputTokens: 18, costMicrodollars: 120), "all three calls, the one written before too")
        // The row written early is the row the run's end would have written.
        e.modelCallsWritten = 0
        let whole = UsageRecord.rows(for: e, outcome: "ok", admitted: true)
        #expect(UsageRecord.callRow(calls[0], index: 1, of: UsageRecord.header(of: e)) == whole[1])
    }

    @Test func aSelectorThatSpentNothingAddsNoRow() {
        let timedOut = SkillSelection(outcome: .failed(reason: "selector_timeout"), message: "late")
        #expect(UsageRecord.rows(for: Self.entry(selection: timedOut), outcome: "ok", admitted: true).map(\.kind) == [.request])
    }

    @Test func anUnreadableAnswerIsStillPaidForAndSaysWhy() {
        let unreadable = SkillSelection(outcome: .failed(reason: "selector_unparsable"), model: "sel/chooser",
                                        usage: Usage(inputTokens: 400, outputTokens: 30), costUSD: 0.00003)
        let rows = UsageRecord.rows(for: Self.entry(selection: unreadable), outcome: "ok", admitted: true)
        #expect(rows.map(\.outcome) == ["ok", "ok", "selector_unparsable"])
        #expect(rows.first?.costMicrodollars == 130)
    }
}
