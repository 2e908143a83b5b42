import Foundation
import Testing
import SkillGateCore
import SkillGateState
@testable import SkillGateServer
import SkillGateTestSupport

/// `skill_ranking.examples` through a real gateway: the strong tier's model (the upstream double) writes the
/// examples in the background, the embeddings double embeds them, and requests go on meanwhile.
@Suite struct SkillExamplesGatewayTests {
    typealias H = SkillsGatewayHarness

    static let config = #"""
    "skill_packs":{"office":["send_email","create_event","translate_text","get_weather"]},
    "scenarios":{"chat":{"skill_packs":["office"],"max_visible_skills":2}},
    "skill_ranking":{"embeddings":{"model":"emb/topics","timeout_ms":60000},"examples":{"model":"strong","timeout_ms":60000}}
    """#

    static let answer = #"{"en": ["mail this to Ann", "any news on the forecast?"], "zh": ["帮我发个邮件"]}"#

    @Test func requestsGoOnWhileTheExamplesAreWrittenThenTheyAreUsed() async throws {
        let embeddings = try EmbeddingDouble()
        let h = try H(config: Self.config, script: ["light-native": .text("Done."), "strong-native": .text(Self.answer)],
                      providers: ["emb": TopicVectors.catalogFile(id: "emb", baseURL: embeddings.baseURL)])
        let tools = SemanticRankingGatewayTests.tools
        let first = try await h.chat(H.request("email Bob the report", tools: tools, model: "light"))
        #expect(first.status == 200)
        #expect(first.headers["x-skillgate-skills"]?.hasSuffix("ranking=hybrid; examples=pending") == true, "\(first.headers["x-skillgate-skills"] ?? "")")

        let writer = try #require(h.gateway.services.skillRanker.examples)
        for _ in 0..<600 where writer.counts.written < tools.count { try await Task.sleep(for: .milliseconds(50)) }
        #expect(writer.counts.written == tools.count && writer.counts.failed == 0)
        var last = first
        for _ in 0..<600 {
            last = try await h.chat(H.request("email Bob the report", tools: tools, model: "light"))
            if last.headers["x-skillgate-skills"]?.hasSuffix("examples=used") == true { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        let store = try #require(h.gateway.services.tokens.store as? SQLiteStateStore)
        let stored = try store.skillExampleCount()
        let metrics = h.gateway.services.metrics.render()
        await h.stop()   // closes the usage ledger: what was queued is written
        await embeddings.stop()
        #expect(last.status == 200 && last.headers["x-skillgate-skills"]?.hasSuffix("ranking=hybrid; examples=used") == true,
                "\(last.headers["x-skillgate-skills"] ?? "")")
        #expect(stored == tools.count, "kept in the state store")

        // One writing call per skill, to the strong tier's model, as the prompt asks; every chat went to the light one.
        let calls = h.upstream.requests.filter { $0["response_format"] != nil }
        #expect(calls.count == tools.count)
        #expect(calls.allSatisfy { $0["response_format"] == ["type": "json_object"] && $0["temperature"]?.doubleValue == 0 && $0["tools"] == nil })
        let prompts = calls.compactMap { $0["messages"]?.arrayValue?.last?["content"]?.stringValue }
        #expect(Set(prompts.compactMap { $0.split(separator: "\n").first.map(String.init) }) == Set(tools.map { "name: \($0.name)" }))
        #expect(h.upstream.models.filter { $0 == "strong-native" }.count == tools.count)
        // The examples were embedded as queries, once.
        #expect(embeddings.requests.filter { $0["input_type"] == "query" && ($0["input"]?.arrayValue?.count ?? 0) == 3 }.count == 1)
        let lines = await h.logLines()
        #expect(lines.first?["skills_examples"] == "pending" && lines.last?["skills_examples"] == "used")

        // The writing is the gateway's own spend: counted in the metrics under the writer's model and logged, skill by skill.
        // (The double reports 5 prompt and 3 completion tokens per answer; the chats' own tokens count under up/light-native.)
        #expect(metrics.contains(#"skillgate_skill_examples_total{outcome="written"} \#(tools.count)"#), "\(metrics)")
        #expect(metrics.contains(#"skillgate_tokens_total{model="up/strong-native",direction="input"} \#(5 * tools.count)"#), "\(metrics)")
        #expect(metrics.contains(#"skillgate_tokens_total{model="up/strong-native",direction="output"} \#(3 * tools.count)"#), "\(metrics)")
        let events = await h.logEvents()
        let written = events.filter { $0["event"] == "skill_examples_written" }.compactMap { $0["skill"]?.stringValue }
        #expect(Set(written) == Set(tools.map(\.name)) && written.count == tools.count)
        let spent = events.filter { $0["event"] == "skill_examples_call" }
        #expect(spent.count == tools.count && spent.allSatisfy { $0["input_tokens"] == 5 && $0["output_tokens"] == 3 })

        // And in the usage ledger, beside the clients' requests (decision 0049): a row per writing call, under no token.
        let byToken = try store.usageReport(since: Date(timeIntervalSince1970: 0), by: .token)
        let own = byToken.first { $0.key == "(skill examples)" }
        #expect(own?.requests == tools.count && own?.errors == 0, "\(byToken)")
        #expect(own?.inputTokens == 5 * tools.count && own?.outputTokens == 3 * tools.count, "\(byToken)")
        let byModel = try store.usageReport(since: Date(timeIntervalSince1970: 0), by: .model)
        #expect(byModel.first { $0.key == "strong-native" }?.requests == tools.count, "\(byModel)")
    }

    @Test func pastTheHourlyCapTheLogWarnsOnceAndTheRestWait() async throws {
        let embeddings = try EmbeddingDouble()
        let capped = Self.config.replacingOccurrences(of: #""timeout_ms":60000}}"#, with: #""timeout_ms":60000,"max_per_hour":1}}"#)
        #expect(capped != Self.config)
        let h = try H(config: capped, script: ["light-native": .text("Done."), "strong-native": .text(Self.answer)],
                      providers: ["emb": TopicVectors.catalogFile(id: "emb", baseURL: embeddings.baseURL)])
        let tools = SemanticRankingGatewayTests.tools
        let first = try await h.chat(H.request("email Bob the report", tools: tools, model: "light"))
        var paused: [JSONValue] = []
        for _ in 0..<400 where paused.isEmpty {
            try await Task.sleep(for: .milliseconds(25))
            paused = await h.logEvents().filter { $0["event"] == "skill_examples_paused" }
        }
        let written = h.gateway.services.skillRanker.examples?.counts.written
        await h.stop()
        await embeddings.stop()
        #expect(first.status == 200)
        #expect(written == 1, "one skill an hour")
        #expect(paused.count == 1 && paused.first?["level"] == "warn" && paused.first?["queued"] == .int(tools.count - 1), "\(paused)")
        #expect((paused.first?["resumes_in_s"]?.intValue ?? 0) > 3500)
        #expect(paused.first?["error"]?.stringValue?.contains("max_per_hour") == true)
        #expect(h.upstream.requests.filter { $0["response_format"] != nil }.count == 1)
    }
}
