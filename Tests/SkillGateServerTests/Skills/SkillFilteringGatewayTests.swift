import Foundation
import Testing
import SkillGateCore
@testable import SkillGateServer

/// Tool filtering and the invisible-call rule through a real gateway and an upstream double.
@Suite struct SkillFilteringGatewayTests {
    static let config = #"""
    "skill_packs":{"weather":["get_weather","current_time"]},
    "scenarios":{"chat":{"skill_packs":["weather"]},
                 "strict":{"skill_packs":["weather"],"disallowed_tools":"reject"}}
    """#
    typealias H = SkillsGatewayHarness

    @Test func toolsOutsideThePacksAreRemovedBeforeTheUpstreamAndLogged() async throws {
        let h = try H(config: Self.config, script: ["light-native": .text("Sunny.")])
        let r = try await h.chat(H.request("weather in Oslo?", tools: [H.weather, H.deleteFiles]))
        await h.stop()
        #expect(r.status == 200)
        #expect(r.headers["x-skillgate-skills"] == "visible=get_weather; removed=delete_files")
        let sent = try #require(h.upstream.requests.first)
        #expect(sent["tools"]?.arrayValue?.compactMap { $0["function"]?["name"]?.stringValue } == ["get_weather"])
        let line = try #require(await h.logLines().last)
        #expect(line["skills_removed"] == ["delete_files"])
        #expect(line["skills_visible"] == ["get_weather"])
    }

    /// A request with 600 tools, cut to 4 by relevance: the answer's `x-skillgate-skills` stays within its bounds
    /// (decision 0081; it was ~17 KB, over nginx's 4 KB buffer for an upstream's head), and the log has every name.
    @Test func manyToolsKeepTheSkillsHeaderSmallAndTheLogWhole() async throws {
        let h = try H(config: #""scenarios":{"chat":{"max_visible_skills":4}}"#, script: ["light-native": .text("Sunny.")])
        let tools = (0..<600).map { ToolDefinition(name: "lookup_customer_record_\($0)", description: "Look up a customer record") }
        let r = try await h.chat(H.request("weather in Oslo?", tools: tools))
        await h.stop()
        #expect(r.status == 200)
        let header = try #require(r.headers["x-skillgate-skills"])
        #expect(header.utf8.count < 1_000, "x-skillgate-skills is \(header.utf8.count) bytes")
        let cut = try #require(SkillDecisionHeaderTests.list("cut", in: header))
        let (shown, leftOut) = SkillDecisionHeaderTests.parse(cut)
        #expect(shown.count + leftOut == 596 && leftOut > 0)
        let line = try #require(await h.logLines().last)
        #expect(line["skills_cut"]?.arrayValue?.count == 596)
        #expect(line["skills_visible"]?.arrayValue?.count == 4)
    }

    @Test func rejectModeAnswers403WithoutCallingTheUpstream() async throws {
        let h = try H(config: Self.config, script: ["light-native": .text("Sunny.")])
        let r = try await h.chat(H.request("weather?", tools: [H.weather, H.deleteFiles]), scenario: "strict")
        await h.stop()
        #expect(r.status == 403)
        #expect(r.body.contains(#"\"delete_files\""#) && r.body.contains(#"scenario \"strict\""#))
        #expect(h.upstream.requests.isEmpty)
    }

    @Test func unknownScenarioIs404() async throws {
        let h = try H(config: Self.config, script: [:])
        let r = try await h.chat(H.request("hi", tools: []), scenario: "nope")
        await h.stop()
        #expect(r.status == 404 && r.body.contains("unknown scenario"))
    }

    @Test func aCallToAToolTheModelWasNotShownIsNeverHandedOn() async throws {
        let h = try H(config: Self.config, script: ["light-native": .toolCall(name: "delete_files", arguments: "{}")])
        let r = try await h.chat(H.request("clean up", tools: [H.weather, H.deleteFiles]))
        #expect(r.status == 502)
        #expect(r.body.contains("was not shown") && !r.body.contains("tool_calls"))

        let s = try await h.chat(H.request("clean up", tools: [H.weather], stream: true))
        await h.stop()
        // The stream may have started; the call never appears in it, an error event ends it.
        #expect(!s.body.contains("\"tool_calls\""))
        #expect(s.body.contains("was not shown"))
        #expect(await h.logLines().allSatisfy { $0["escalations"] == nil })
    }
}
