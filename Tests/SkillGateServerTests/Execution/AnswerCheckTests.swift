import Testing
import SkillGateCore
import SkillGateProviders
@testable import SkillGateServer

@Suite struct AnswerCheckTests {
    static let light = ResilienceFixtures.target("light-up")
    static let weather = ToolDefinition(name: "get_weather", description: "Weather",
                                        parameters: ["type": "object", "properties": ["city": ["type": "string"]], "required": ["city"]])

    private func answer(_ name: String, _ args: String) -> ChatResponse {
        ChatResponse(id: "r", model: "m", content: [.toolCall(ToolCall(id: "c1", name: name, arguments: args))], finishReason: .toolCalls, usage: Usage())
    }

    @Test func withoutEscalationAnInvisibleCallIsA502AndAGoodAnswerPasses() throws {
        let policy = AnswerPolicy(escalationTargets: nil, scenario: "s")
        #expect(try AnswerCheck.check(answer("get_weather", #"{"city":"Oslo"}"#), offered: [Self.weather], target: Self.light, policy: policy) == nil)
        #expect(throws: GatewayError.self) {
            try AnswerCheck.check(answer("delete_files", "{}"), offered: [Self.weather], target: Self.light, policy: policy)
        }
        // Bad arguments are the model's to fix when nothing escalates.
        #expect(try AnswerCheck.check(answer("get_weather", #"{"town":"Oslo"}"#), offered: [Self.weather], target: Self.light, policy: policy) == nil)
    }

    @Test func inAnAgentRunAnInvisibleCallGoesBackToTheModel() throws {
        var policy = AnswerPolicy(escalationTargets: nil, scenario: "s")
        policy.invisibleCallsToModel = true
        #expect(try AnswerCheck.check(answer("delete_files", "{}"), offered: [Self.weather], target: Self.light, policy: policy) == nil)
    }

    @Test(arguments: [("delete_files", "{}", "tool_not_offered"), ("get_weather", #"{"town":"Oslo"}"#, "invalid_tool_arguments")])
    func whenTheCallEscalatesAnUnusableAnswerIsAValue(_ name: String, _ args: String, _ reason: String) throws {
        let policy = AnswerPolicy(escalationTargets: ["strong-up/m"], scenario: "s")
        let u = try AnswerCheck.check(answer(name, args), offered: [Self.weather], target: Self.light, policy: policy)
        #expect(u?.reason == reason)
    }

    @Test func theEscalationTiersOwnAnswerIsNeverEscalatedAgain() throws {
        let policy = AnswerPolicy(escalationTargets: ["strong-up/m"], scenario: "s")
        let strong = ResilienceFixtures.target("strong-up")
        #expect(try AnswerCheck.check(answer("get_weather", #"{"town":"Oslo"}"#), offered: [Self.weather], target: strong, policy: policy) == nil)
        #expect(throws: GatewayError.self) {
            try AnswerCheck.check(answer("delete_files", "{}"), offered: [Self.weather], target: strong, policy: policy)
        }
    }

    @Test func adapterErrorsBecomeUnusableOnlyWhenTheCallEscalates() {
        var e = GatewayError.upstreamProtocol("bad call", provider: "light-up")
        e.upstreamCode = PromptToolsClient.toolNotOfferedCode
        // A malformed prompt-tools call is a failed answer (decision 0120): it escalates as one, with its reason.
        let malformed = GatewayError.failedAnswer(.malformedToolCall, usage: Usage(), message: "bad call", provider: "light-up",
                                                  upstreamCode: PromptToolsClient.malformedToolCallCode)
        let escalating = AnswerPolicy(escalationTargets: ["strong-up/m"], scenario: "s")
        #expect(AnswerCheck.unusable(e, target: "light-up/m", policy: escalating)?.reason == PromptToolsClient.toolNotOfferedCode)
        #expect(AnswerCheck.unusable(malformed, target: "light-up/m", policy: escalating)?.reason == PromptToolsClient.malformedToolCallCode)
        for error in [e, malformed] {
            #expect(AnswerCheck.unusable(error, target: "strong-up/m", policy: escalating) == nil)
            #expect(AnswerCheck.unusable(error, target: "light-up/m", policy: escalating.escalated) == nil)
        }
        #expect(AnswerCheck.unusable(GatewayError.upstreamProtocol("other", provider: "x"), target: "light-up/m", policy: escalating) == nil)
    }
}
