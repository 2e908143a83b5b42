import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateKeys
import SkillGateState
@testable import SkillGateServer

/// `skill_ranking.selector` through a real gateway: the selector's call and the chat both go to the
/// OpenAI-compatible upstream double, the selector to the strong tier's model, the chat to the light one.
@Suite struct SkillSelectorGatewayTests {
    typealias H = SkillsGatewayHarness

    static let config = #"""
    "skill_packs":{"office":["send_email","create_event","translate_text","get_weather"]},
    "scenarios":{"chat":{"skill_packs":["office"],"max_visible_skills":1},
                 "quick":{"skill_packs":["office"],"max_visible_skills":1,"skill_selector":false}},
    "skill_ranking":{"selector":{"model":"strong","candidates":3,"timeout_ms":60000}}
    """#

    static let tools = SemanticRankingGatewayTests.tools

    @Test func theSelectorsChoiceIsWhatTheModelSees() async throws {
        // The ranking alone keeps send_email for "email Bob"; the selector's choice replaces it, which shows
        // the choice (not the ranking) decided.
        let h = try H(config: Self.config, script: ["light-native": .text("Done."), "strong-native": .text(#"{"tools": ["create_event"]}"#)])
        let r = try await h.chat(H.request("email Bob and put the review on my calendar", tools: Self.tools, model: "light"))
        await h.stop()
        #expect(r.status == 200)
        let header = try #require(r.headers["x-skillgate-skills"])
        #expect(header.hasPrefix("visible=create_event; cut=") && header.hasSuffix("max=1; ranking=lexical; selector=chose"), "\(header)")
        let requests = h.upstream.requests
        #expect(h.upstream.models == ["strong-native", "light-native"])
        // The selector's call: no tools, instructions first, three numbered candidates.
        let selectorCall = try #require(requests.first)
        #expect(selectorCall["tools"] == nil && selectorCall["temperature"]?.doubleValue == 0)
        let prompt = selectorCall["messages"]?.arrayValue?.compactMap { $0["content"]?.stringValue } ?? []
        #expect(prompt.count == 2 && prompt[0].contains("Reply with JSON only"))
        #expect(prompt.count == 2 && prompt[1].contains("user: email Bob and put the review on my calendar") && prompt[1].contains("\n3. ") && !prompt[1].contains("\n4. "))
        #expect(requests.last?["tools"]?.arrayValue?.compactMap { $0["function"]?["name"]?.stringValue } == ["create_event"])
        let line = try #require(await h.logLines().first)
        #expect(line["skills_selector"] == "chose" && line["skills_selector_chosen"] == ["create_event"])
        #expect(line["skills_selector_model"] == "up/strong-native" && line["skills_selector_ms"]?.doubleValue != nil)
        #expect(line["model"] == "up/light-native", "the request's own model is unchanged")
        #expect(h.gateway.services.skillRanker.counters.selected == 1)
        // Counted before the log line was written (account stage).
        let metrics = h.gateway.services.renderMetrics()
        #expect(metrics.contains(#"skillgate_skill_cuts_total{ranking="lexical"} 1"#), "\(metrics)")
        #expect(metrics.contains(#"skillgate_skill_selector_total{outcome="chose"} 1"#))
        // The selector's tokens count under its own model; the chat's under the light one.
        #expect(line["skills_selector_input_tokens"] == 5 && line["skills_selector_output_tokens"] == 3)
        #expect(metrics.contains(#"skillgate_tokens_total{model="up/strong-native",direction="input"} 5"#))
        #expect(metrics.contains(#"skillgate_tokens_total{model="up/light-native",direction="input"} 5"#))
    }

    @Test func theSelectorsCallIsPartOfWhatTheRequestSpent() async throws {
        // Each call spends 5 input and 3 output tokens: the selector's on the strong model (10 and 20 USD per
        // million) costs 110 µ$, the answer on the light one (1 and 2) 11 µ$.
        let h = try H(config: Self.config, script: ["light-native": .text("Done."), "strong-native": .text(#"{"tools": ["create_event"]}"#)],
                      priced: true)
        let r = try await h.chat(H.request("email Bob and put the review on my calendar", tools: Self.tools, model: "light"))
        await h.gateway.flushLedger()
        let store = try #require(h.gateway.services.tokens.store as? SQLiteStateStore)
        let rows = try store.withConnection { db in
            try db.statement("SELECT kind, model, input_tokens, output_tokens, cost_microdollars FROM usage_records ORDER BY id").rows {
                ($0.text(0), $0.text(1), Int($0.int64(2)), Int($0.int64(3)), Int($0.int64(4)))
            }
        }
        let byToken = try store.usageReport(since: Date(timeIntervalSince1970: 0), by: .token)
        let byModel = try store.usageReport(since: Date(timeIntervalSince1970: 0), by: .model)
        let metrics = h.gateway.services.renderMetrics()
        await h.stop()
        #expect(r.status == 200)
        let line = try #require(await h.logLines().first)
        #expect(line["cost_usd"]?.doubleValue == 0.000011, "the answer's own cost")
        #expect(line["skills_selector_cost_usd"]?.doubleValue == 0.00011)
        // Two model calls make a run row with the sums (budgets and the reports by token read it) and a row per call.
        #expect(rows.map(\.0) == ["run", "call", "call"], "\(rows)")
        #expect(rows.map(\.1) == ["up/light-native", "up/light-native", "up/strong-native"], "\(rows)")
        #expect(rows.map { [$0.2, $0.3, $0.4] } == [[10, 6, 121], [5, 3, 11], [5, 3, 110]], "\(rows)")
        #expect(byToken.map { [$0.requests, $0.inputTokens, Int($0.costMicrodollars)] } == [[1, 10, 121]], "\(byToken)")
        #expect(Set(byModel.map { "\($0.key) \($0.requests) \($0.costMicrodollars)" }) == ["up/light-native 1 11", "up/strong-native 1 110"], "\(byModel)")
        // The metrics count each call's cost under its own model.
        func cost(_ model: String) -> Double? {
            let prefix = #"skillgate_cost_usd_total{model=""# + model + #""} "#
            return metrics.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Double($0.dropFirst(prefix.count)) }
        }
        #expect(cost("up/strong-native").map { abs($0 - 0.00011) < 1e-12 } == true, "\(metrics)")
        #expect(cost("up/light-native").map { abs($0 - 0.000011) < 1e-12 } == true, "\(metrics)")
        #expect(metrics.contains(#"skillgate_tokens_total{model="up/light-native",direction="input"} 5"#), "the selector's tokens are not the answer's")
    }

    @Test func aScenarioThatTurnsTheSelectorOffIsRankedAlone() async throws {
        let h = try H(config: Self.config, script: ["light-native": .text("Done."), "strong-native": .text(#"{"tools": ["create_event"]}"#)])
        let r = try await h.chat(H.request("email Bob the report", tools: Self.tools, model: "light"), scenario: "quick")
        await h.stop()
        #expect(r.status == 200)
        #expect(r.headers["x-skillgate-skills"]?.hasPrefix("visible=send_email; cut=") == true)
        #expect(r.headers["x-skillgate-skills"]?.hasSuffix("max=1; ranking=lexical") == true, "\(r.headers["x-skillgate-skills"] ?? "")")
        #expect(h.upstream.models == ["light-native"], "the selector's model was not asked")
        #expect(await h.logLines().first?["skills_selector"] == nil)
    }

    @Test func aSelectorThatDoesNotAnswerInJSONLeavesTheRankingsCut() async throws {
        let h = try H(config: Self.config, script: ["light-native": .text("Sent."), "strong-native": .text("You should use the email tool.")])
        let r = try await h.chat(H.request("email Bob the report", tools: Self.tools, model: "light"))
        await h.stop()
        #expect(r.status == 200)
        #expect(r.headers["x-skillgate-skills"]?.hasPrefix("visible=send_email; cut=") == true)
        #expect(r.headers["x-skillgate-skills"]?.hasSuffix("ranking=lexical; selector=failed(selector_unparsable)") == true, "\(r.headers["x-skillgate-skills"] ?? "")")
        let line = try #require(await h.logLines().first)
        #expect(line["skills_selector"] == "failed" && line["skills_selector_reason"] == "selector_unparsable")
        #expect(h.gateway.services.skillRanker.counters.selectorFailures == 1)
        #expect(h.gateway.services.renderMetrics().contains(#"skillgate_skill_selector_total{outcome="selector_unparsable"} 1"#))
    }

    @Test func aSelectorTierWithoutModelsStopsTheRankerFromBeingBuilt() throws {
        let dir = NSTemporaryDirectory() + "skillgate-selector-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The config check refuses this too (SkillRankingConfigTests); the ranker checks again for callers that skip it.
        let config = try GatewayConfig(json: try JSONValue.parse(#"{"tiers":{"light":["demo/demo-light"],"strong":[]},"default_model":"light","skill_ranking":{"selector":{"model":"strong"}}}"#),
                                       file: "test.json", baseDirectory: ModelResolverTests.repoRoot.path)
        let http = HTTPClient()
        defer { http.shutdown() }
        #expect {
            _ = try SkillRanker(config: config, catalog: ModelResolverTests.catalog, keys: try KeyStore(path: dir + "/keys.json"), stateStore: nil, http: http)
        } throws: { error in
            guard let e = error as? JSONShapeError else { return false }
            return e.path == "$.skill_ranking.selector.model" && e.message.contains("tier \"strong\" has no usable models") && e.message.contains("selector")
        }
    }
}
