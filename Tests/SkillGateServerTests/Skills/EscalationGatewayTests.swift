import Foundation
import Testing
import SkillGateCore
@testable import SkillGateServer

/// Escalation: an unusable light answer is re-run on the strong tier before anything reached the client.
@Suite struct EscalationGatewayTests {
    static let config = #"""
    "skill_packs":{"weather":["get_weather","current_time"]},
    "scenarios":{"chat":{"skill_packs":["weather"],"escalate":true},
                 "noescalate":{"skill_packs":["weather"]}}
    """#
    typealias H = SkillsGatewayHarness
    static let good = ScriptedAnswer.toolCall(name: "get_weather", arguments: #"{"city":"Oslo"}"#)

    @Test(arguments: [
        (ScriptedAnswer.toolCall(name: "delete_files", arguments: "{}"), "tool_not_offered"),
        (.toolCall(name: "get_weather", arguments: #"{"town":"Oslo"}"#), "invalid_tool_arguments"),
        (.toolCall(name: "get_weather", arguments: #"{"city":"#), "invalid_tool_arguments"),
        (.empty, "empty_answer"),
    ], [false, true])
    func unusableLightAnswerIsReplacedByTheStrongOne(_ unusable: (answer: ScriptedAnswer, reason: String), _ stream: Bool) async throws {
        let (light, reason) = unusable
        let h = try H(config: Self.config, script: ["light-native": light, "strong-native": Self.good])
        let r = try await h.chat(H.request("weather in Oslo?", tools: [H.weather], stream: stream))
        await h.gateway.flushLedger()
        let spent = try h.gateway.services.tokens.store.usageReport(since: Date(timeIntervalSince1970: 0), by: .token)
        let metrics = h.gateway.services.renderMetrics()
        await h.stop()
        #expect(r.status == 200)
        #expect(h.upstream.models == ["light-native", "strong-native"])
        // The unusable answer was paid for too: the ledger holds one request with both answers' tokens.
        #expect(spent.first?.requests == 1)
        if !stream { #expect(spent.first?.inputTokens == 10, "5 prompt tokens per answer, both answers: \(spent)") }
        #expect(metrics.contains(#"skillgate_escalations_total{scenario="chat"} 1"#))
        #expect(r.headers["x-skillgate-model"] == "up/strong-native")
        #expect(r.headers["x-skillgate-skills"] == "visible=get_weather; escalated=\(reason)")
        #expect(r.body.contains("get_weather") && r.body.contains("Oslo") && !r.body.contains("delete_files"))
        let line = try #require(await h.logLines().last)
        #expect(line["escalations"] == 1)
        // The log line shows the unusable answer's spend beside the answer's (decision 0108).
        if !stream { #expect(line["unusable_input_tokens"] == 5, "\(line)") }
        #expect(line["unusable_output_tokens"] != nil)
        #expect(line["model"] == "up/strong-native")
        #expect(line["route"]?.stringValue?.contains("escalated to strong: \(reason)") == true)
        // The light deployment answered (it is healthy); its answer was unusable and re-run.
        #expect(line["attempts"]?.arrayValue?.map { $0.stringValue ?? "" }.prefix(2)
                == ["up/light-native: 200 ok", "up/light-native: unusable answer (\(reason)), escalated"])
    }

    @Test(arguments: [false, true])
    func anthropicSurfaceGetsTheStrongAnswerInItsOwnShape(_ stream: Bool) async throws {
        let h = try H(config: Self.config, script: ["light-native": .toolCall(name: "delete_files", arguments: "{}"), "strong-native": Self.good])
        let r = try await h.chat(H.anthropicRequest("weather in Oslo?", tools: [H.weather, H.deleteFiles], stream: stream), path: "/v1/messages")
        await h.stop()
        #expect(r.status == 200)
        #expect(r.body.contains("tool_use") && r.body.contains("get_weather") && !r.body.contains("delete_files"))
        #expect(r.headers["x-skillgate-skills"] == "visible=get_weather; removed=delete_files; escalated=tool_not_offered")
        #expect(h.upstream.models == ["light-native", "strong-native"])
    }

    @Test func usableLightAnswerIsNotEscalated() async throws {
        let h = try H(config: Self.config, script: ["light-native": Self.good, "strong-native": .text("unused")])
        let r = try await h.chat(H.request("weather in Oslo?", tools: [H.weather], stream: true))
        await h.stop()
        #expect(r.status == 200 && r.body.contains("Oslo"))
        #expect(h.upstream.models == ["light-native"])
        #expect(await h.logLines().last?["escalations"] == nil)
    }

    @Test func theStrongTierIsNotEscalatedAgainAndStillNeverHandsOnAnInvisibleCall() async throws {
        let h = try H(config: Self.config, script: ["strong-native": .toolCall(name: "delete_files", arguments: "{}")])
        let r = try await h.chat(H.request("weather?", tools: [H.weather], model: "strong"))
        let plain = try await h.chat(H.request("weather?", tools: [H.weather], model: "strong"), scenario: "noescalate")
        await h.stop()
        #expect(r.status == 502 && r.body.contains("was not shown"))
        #expect(plain.status == 502)
        #expect(h.upstream.models == ["strong-native", "strong-native"])
    }

    @Test func invalidArgumentsFromTheStrongTierAreHandedOnAsTheyAre() async throws {
        let h = try H(config: Self.config, script: ["strong-native": .toolCall(name: "get_weather", arguments: #"{"town":"Oslo"}"#)])
        let r = try await h.chat(H.request("weather?", tools: [H.weather], model: "strong"))
        await h.stop()
        #expect(r.status == 200 && r.body.contains("town"))
        #expect(h.upstream.models == ["strong-native"])
    }

    @Test func aTokenThatMayNotUseTheEscalationTierGetsNoEscalation() async throws {
        let h = try H(config: Self.config, script: ["light-native": .toolCall(name: "delete_files", arguments: "{}"), "strong-native": Self.good])
        let lightOnly = try h.makeToken(name: "light-only", models: ["light"])
        let r = try await h.chat(H.request("weather?", tools: [H.weather]), token: lightOnly)
        await h.stop()
        #expect(r.status == 502 && r.body.contains("was not shown"))
        #expect(h.upstream.models == ["light-native"])
    }

    @Test func withoutEscalationAnEmptyLightAnswerIsReturnedAsItIs() async throws {
        let h = try H(config: Self.config, script: ["light-native": .empty])
        let r = try await h.chat(H.request("hi", tools: [H.weather]), scenario: "noescalate")
        await h.stop()
        #expect(r.status == 200)
        #expect(h.upstream.models == ["light-native"])
    }

    @Test func promptToolsModelCallingAnUnofferedToolEscalates() async throws {
        let config = Self.config.replacingOccurrences(of: #""escalate":true}"#, with: #""escalate":true,"default_model":"up/light-prompt"}"#)
        let h = try H(config: config, script: [
            "light-prompt": .text(#"<tool_call>{"name":"delete_files","arguments":{}}</tool_call>"#),
            "strong-native": Self.good,
        ])
        let r = try await h.chat(H.request("weather?", tools: [H.weather]))
        await h.stop()
        #expect(r.status == 200 && r.body.contains("Oslo"))
        #expect(h.upstream.models == ["light-prompt", "strong-native"])
        #expect(r.headers["x-skillgate-skills"]?.hasSuffix("escalated=tool_not_offered") == true)
    }

    /// A prompt-tools model's malformed call (a failed answer, decision 0120) escalates at once, as it did before it was
    /// one: the light model is not tried again, the reason is in the route note, and the malformed answer's tokens are
    /// counted beside the escalated answer's.
    @Test(arguments: [false, true])
    func promptToolsModelWritingAMalformedCallEscalatesAtOnce(_ stream: Bool) async throws {
        let config = Self.config.replacingOccurrences(of: #""escalate":true}"#, with: #""escalate":true,"default_model":"up/light-prompt"}"#)
        let h = try H(config: config, script: [
            "light-prompt": .text(#"<tool_call>{"name":"get_weather","arguments":{"city":"Oslo"</tool_call>"#),
            "strong-native": Self.good,
        ])
        let r = try await h.chat(H.request("weather?", tools: [H.weather], stream: stream))
        let line = await h.logLines().last
        await h.stop()
        #expect(r.status == 200 && r.body.contains("Oslo"), "\(r.body)")
        #expect(h.upstream.models == ["light-prompt", "strong-native"], "the light model is not tried again")
        #expect(r.headers["x-skillgate-skills"]?.hasSuffix("escalated=malformed_tool_call") == true)
        #expect(line?["route"]?.stringValue?.contains("escalated to strong: malformed_tool_call") == true, "\(String(describing: line))")
        #expect((line?["unusable_input_tokens"]?.intValue ?? 0) > 0, "the malformed answer was paid for: \(String(describing: line))")
        if !stream { #expect(line?["unusable_input_tokens"] == 5, "\(String(describing: line))") }
    }
}
