import Foundation
import Testing
import SkillGateCore
@testable import SkillGateServer
import SkillGateTestSupport

/// Semantic skill ranking through a real gateway, an upstream double and an embeddings double.
@Suite struct SemanticRankingGatewayTests {
    typealias H = SkillsGatewayHarness

    static func config(timeoutMs: Int) -> String {
        #"""
        "skill_packs":{"office":["send_email","create_event","translate_text","get_weather","list_events"]},
        "scenarios":{"chat":{"skill_packs":["office"],"max_visible_skills":2}},
        "skill_ranking":{"embeddings":{"model":"emb/topics","timeout_ms":\#(timeoutMs)}}
        """#
    }

    /// The weather tool comes last: a blind (or lexical) cut of a Chinese question drops it.
    static let tools = [
        ToolDefinition(name: "send_email", description: "Send an email to a contact"),
        ToolDefinition(name: "create_event", description: "Create a calendar event"),
        ToolDefinition(name: "translate_text", description: "Translate text between languages"),
        ToolDefinition(name: "get_weather", description: "Current weather and forecast for a city"),
    ]

    @Test func withEmbeddingsAChineseQuestionKeepsTheEnglishWeatherTool() async throws {
        let embeddings = try EmbeddingDouble()
        // The timeout is not what this test checks: a minute, as the scorer's worker runs on the
        // cooperative pool, which tests running in parallel may keep busy for seconds.
        let h = try H(config: Self.config(timeoutMs: 60_000), script: ["light-native": .text("Rain.")],
                      providers: ["emb": TopicVectors.catalogFile(id: "emb", baseURL: embeddings.baseURL)])
        let r = try await h.chat(H.request("明天北京会下雨吗？", tools: Self.tools))
        let second = try await h.chat(H.request("后天的天气呢？", tools: Self.tools))
        await h.stop()
        await embeddings.stop()
        #expect(r.status == 200 && second.status == 200)
        let header = try #require(r.headers["x-skillgate-skills"])
        #expect(header.contains("get_weather") && header.hasSuffix("max=2; ranking=hybrid"), "\(header)")
        #expect(h.upstream.requests.first?["tools"]?.arrayValue?.compactMap { $0["function"]?["name"]?.stringValue }.contains("get_weather") == true)
        // One batch for the four descriptions (with the model's input_type), then one query per request.
        #expect(embeddings.inputs.map(\.count) == [1, 4, 1] || embeddings.inputs.map(\.count) == [4, 1, 1])
        #expect(embeddings.requests.filter { $0["input_type"] == "passage" }.count == 1)
        #expect(embeddings.requests.filter { $0["input_type"] == "query" }.count == 2)
        let line = try #require(await h.logLines().first)
        #expect(line["skills_ranking"] == "hybrid" && line["skills_ranking_reason"] == nil)
        #expect(line["skills_embeddings_ms"]?.doubleValue != nil)
        #expect(h.gateway.services.skillRanker.counters.hybrid == 2)
    }

    @Test func theScorerKeepsAsManyVectorsInMemoryAsConfigured() async throws {
        let embeddings = try EmbeddingDouble()
        let sized = Self.config(timeoutMs: 60_000).replacingOccurrences(of: #""timeout_ms":60000}"#, with: #""timeout_ms":60000,"cache_vectors":20000}"#)
        let h = try H(config: sized, script: ["light-native": .text("Rain.")],
                      providers: ["emb": TopicVectors.catalogFile(id: "emb", baseURL: embeddings.baseURL)])
        let plain = try H(config: Self.config(timeoutMs: 60_000), script: ["light-native": .text("Rain.")],
                          providers: ["emb": TopicVectors.catalogFile(id: "emb", baseURL: embeddings.baseURL)])
        let capacities = (h.gateway.services.skillRanker.scorer?.cache.capacity, plain.gateway.services.skillRanker.scorer?.cache.capacity)
        await h.stop()
        await plain.stop()
        await embeddings.stop()
        #expect(capacities.0 == 20_000 && capacities.1 == 4096)
    }

    @Test func withTheEmbeddingServerStoppedTheRequestIsRankedLexicallyAndSaysWhy() async throws {
        // A port nothing listens on and no test running in parallel can take (a stopped double's port could be
        // reused by another test's server, whose answer then reads as malformed embeddings).
        let url = "http://127.0.0.1:\(try ClosedPort.make())/v1"
        // A refused connection fails at once; the long timeout (the most the config allows) only leaves room for a busy
        // machine: the fifty-eighth session's stress run saw the refusal reported after 31 s, the suite's tasks waiting
        // for a pool thread, so the bound sits between that and the timeout.
        let h = try H(config: Self.config(timeoutMs: 60_000), script: ["light-native": .text("Sent.")],
                      providers: ["emb": TopicVectors.catalogFile(id: "emb", baseURL: url)])
        let r = try await h.chat(H.request("please email Bob the report", tools: Self.tools))
        await h.stop()
        #expect(r.status == 200)
        // Ranked without the model: BM25 and the built-in word vectors.
        #expect(r.headers["x-skillgate-skills"] == "visible=send_email,create_event; cut=get_weather,translate_text; max=2; ranking=lexical_fallback(embeddings_unreachable)")
        let line = try #require(await h.logLines().first)
        #expect(line["skills_ranking"] == "lexical_fallback" && line["skills_ranking_reason"] == "embeddings_unreachable")
        #expect(line["skills_ranking_error"]?.stringValue?.contains("emb/topics") == true)
        #expect((line["skills_embeddings_ms"]?.doubleValue ?? .infinity) < 50_000, "failed at once, not at the embedding timeout")
        #expect(h.gateway.services.skillRanker.counters.fallbacks == 1)
        #expect(h.gateway.services.renderMetrics().contains(#"skillgate_skill_cuts_total{ranking="lexical_fallback"} 1"#))
    }

    @Test func aStallingEmbeddingServerCostsAtMostTheTimeout() async throws {
        try await onOwnThread {
            let embeddings = try EmbeddingDouble(delay: .seconds(10))
            let h = try H(config: Self.config(timeoutMs: 200), script: ["light-native": .text("Sent.")],
                          providers: ["emb": TopicVectors.catalogFile(id: "emb", baseURL: embeddings.baseURL)])
            let clock = ContinuousClock()
            let started = clock.now
            let r = try await h.chat(H.request("明天北京会下雨吗？", tools: Self.tools))
            let elapsed = clock.now - started
            await h.stop()
            await embeddings.stop()
            #expect(r.status == 200)
            // No word in common, but the built-in word vectors still keep the weather tool: the cut is not blind.
            #expect(r.headers["x-skillgate-skills"] == "visible=translate_text,get_weather; cut=create_event,send_email; max=2; ranking=lexical_fallback(embeddings_timeout)")
            // Far below the 10 s stall (generous bounds: the machine may be busy).
            #expect(elapsed < .seconds(5), "\(elapsed)")
            let ms = await h.logLines().first?["skills_embeddings_ms"]?.doubleValue ?? .infinity
            #expect(ms >= 150 && ms < 4000, "\(ms)")
            #expect(await h.logLines().first?["skills_blind"] == nil)
        }
    }

    @Test func aScenarioThatDoesNotCutNeverCallsTheEmbeddingModel() async throws {
        let embeddings = try EmbeddingDouble()
        let h = try H(config: Self.config(timeoutMs: 300), script: ["light-native": .text("Sunny.")],
                      providers: ["emb": TopicVectors.catalogFile(id: "emb", baseURL: embeddings.baseURL)])
        let r = try await h.chat(H.request("明天北京会下雨吗？", tools: Array(Self.tools.suffix(2))))
        await h.stop()
        await embeddings.stop()
        #expect(r.headers["x-skillgate-skills"] == "visible=translate_text,get_weather; max=2")
        #expect(embeddings.requests.isEmpty)
        #expect(await h.logLines().first?["skills_ranking"] == nil)
    }

    /// Without embeddings: BM25 with the built-in word vectors (translate_text is nearer "email Bob" than
    /// create_event), or with `word_vectors: false` BM25 alone (the rest tie, so the first declared stays).
    @Test(arguments: [
        ("", "visible=send_email,translate_text; cut=create_event,get_weather; max=2; ranking=lexical"),
        (#","skill_ranking":{"word_vectors":false}"#, "visible=send_email,create_event; cut=translate_text,get_weather; max=2; ranking=lexical"),
    ])
    func withoutEmbeddingsACutSaysItWasLexical(_ ranking: String, _ header: String) async throws {
        let h = try H(config: #""skill_packs":{"office":["send_email","create_event","translate_text","get_weather"]},"scenarios":{"chat":{"skill_packs":["office"],"max_visible_skills":2}}"# + ranking,
                      script: ["light-native": .text("Sent.")])
        let r = try await h.chat(H.request("email Bob", tools: Self.tools))
        await h.stop()
        #expect(r.headers["x-skillgate-skills"] == header)
        #expect(await h.logLines().first?["skills_ranking"] == "lexical")
    }
}
