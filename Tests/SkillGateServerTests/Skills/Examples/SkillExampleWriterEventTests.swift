import Testing
import Synchronization
import SkillGateCore
import SkillGateProviders
import SkillGateSkills
import SkillGateState
@testable import SkillGateServer

/// What the examples writer reports (`SkillExampleWriter.Event`) and the hourly cap (`max_per_hour`).
@Suite struct SkillExampleWriterEventTests {
    /// Collects a writer's events.
    final class Events: Sendable {
        private let seen = Mutex<[(event: SkillExampleWriter.Event, at: ContinuousClock.Instant)]>([])
        var all: [SkillExampleWriter.Event] { seen.locked { $0.map(\.event) } }
        var sink: SkillExampleWriter.EventSink { { [self] event in seen.locked { $0.append((event, .now)) } } }
        /// When each skill finished, in order.
        var finishedAt: [ContinuousClock.Instant] {
            seen.locked { $0.compactMap { if case .finished = $0.event { $0.at } else { nil } } }
        }
    }

    static func pricedTarget(_ provider: String) -> RouteTarget {
        let model = ModelSpec(id: "m", tier: .light, contextWindow: 8000, price: ModelPrice(inputPerMTok: 1, outputPerMTok: 4))
        let spec = ProviderSpec(id: provider, displayName: provider, wireFormat: .openAIChat, baseURL: "http://127.0.0.1:9/v1", auth: .none,
                                models: [model])
        return RouteTarget(provider: spec, model: model)
    }

    @Test func everyAnswerReportsItsModelTokensAndCostAndEverySkillHowItEnded() async {
        let events = Events()
        let model = ExampleModelDouble(failing: ["book_table"])
        let writer = model.writer(targets: [Self.pricedTarget("gen")], events: events.sink)
        let skills = Array(SkillExampleWriterTests.candidates.prefix(5))
        await writer.writeAll(skills)

        let answered = events.all.filter { if case .answered = $0 { true } else { false } }
        let cost = (120.0 * 1 + 45.0 * 4) / 1_000_000
        #expect(answered.count == 4, "the failed call spent nothing it could report")
        #expect(answered.allSatisfy { $0 == .answered(model: "gen/m", usage: ExampleModelDouble.usage, costUSD: cost) }, "\(answered)")
        let finished = events.all.compactMap { if case .finished(let skill, let failure) = $0 { (skill, failure) } else { nil } }
        #expect(finished.map(\.0) == skills.map(\.name), "one outcome per skill, in order")
        #expect(finished.filter { $0.1 == nil }.count == 4)
        let failure = finished.first { $0.0 == "book_table" }?.1
        #expect(failure?.contains("gen/m") == true, "names the target: \(failure ?? "")")

        // Every call, answered or failed, as a usage-ledger row of the gateway's own (decision 0049).
        let rows = events.all.compactMap { if case .recorded(let row) = $0 { row } else { nil } }
        #expect(rows.count == 5, "\(rows)")
        #expect(rows.allSatisfy { $0.kind == .examples && $0.provider == "gen" && $0.model == "m" && $0.tokenId == nil && $0.scenario == nil })
        let answeredRows = rows.filter { $0.outcome == "ok" }
        #expect(answeredRows.count == 4 && answeredRows.allSatisfy { $0.usage == ExampleModelDouble.usage && $0.costMicrodollars == 300 })
        let failedRows = rows.filter { $0.outcome != "ok" }
        #expect(failedRows.count == 1 && failedRows.first?.outcome == GatewayError.Kind.upstreamError.rawValue && failedRows.first?.costMicrodollars == nil,
                "\(failedRows)")
    }

    @Test func pastMaxPerHourWritingWaitsForTheHourAndSaysSo() async throws {
        let events = Events()
        let model = ExampleModelDouble()
        let writer = model.writer(targets: [ResilienceFixtures.target("gen")], maxPerHour: 2, hour: .seconds(60), events: events.sink)
        let skills = Array(SkillExampleWriterTests.candidates.prefix(3))
        #expect(writer.examples(for: skills) == nil, "queued for writing")
        var paused: [(queued: Int, seconds: Double)] = []
        for _ in 0..<1000 where paused.isEmpty {
            try await Task.sleep(for: .milliseconds(10))
            paused = events.all.compactMap { if case .paused(let queued, let seconds) = $0 { (queued, seconds) } else { nil } }
        }
        // Two skills in the window, then the third waits for the first to leave it (a minute here), and says so once.
        #expect(writer.counts.written == 2 && model.calls.count == 2, "\(model.calls)")
        #expect(paused.count == 1 && paused.first?.queued == 1, "\(paused)")
        #expect((paused.first?.seconds ?? 0) > 30 && (paused.first?.seconds ?? 0) <= 60, "\(paused)")
        #expect(model.calls.count == 2, "still waiting")
    }

    @Test func theMetricsCountTheWritersSpendUnderItsModelAndTheSkillsByOutcome() {
        let metrics = GatewayMetrics()
        metrics.countExampleWriting(.answered(model: "gen/m", usage: Usage(inputTokens: 120, outputTokens: 45, cachedInputTokens: 20), costUSD: 0.25))
        metrics.countExampleWriting(.finished(skill: "send_email", failure: nil))
        metrics.countExampleWriting(.finished(skill: "book_table", failure: "gen/m: 500"))
        metrics.countExampleWriting(.paused(queued: 3, seconds: 12))
        let text = metrics.render()
        for line in [#"skillgate_skill_examples_total{outcome="written"} 1"#, #"skillgate_skill_examples_total{outcome="failed"} 1"#,
                     #"skillgate_tokens_total{model="gen/m",direction="input"} 120"#, #"skillgate_tokens_total{model="gen/m",direction="output"} 45"#,
                     #"skillgate_tokens_total{model="gen/m",direction="cached_input"} 20"#, #"skillgate_cost_usd_total{model="gen/m"} 0.25"#] {
            #expect(text.contains(line), "\(line) in \(text)")
        }
        let off = GatewayMetrics(enabled: false)
        off.countExampleWriting(.finished(skill: "send_email", failure: nil))
        #expect(!off.render().contains("outcome=\"written\""))
    }
}
