import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateProviders
import SkillGateRouting
@testable import SkillGateServer

/// The response cache's key (decision 0140): everything that changes the model's answer changes it; what changes only
/// the cost does not; and the token is part of it.
@Suite struct ResponseCacheKeyTests {
    static let light = ResponseCacheEntriesTests.target
    static let strong = RouteTarget(provider: light.provider, model: ModelSpec(id: "m2", tier: .strong, contextWindow: 8000))
    static let plan = RoutePlan(requested: "light", targets: [light], explanation: "tier light")

    static let base: ChatRequest = {
        var r = ChatRequest(model: "light", messages: [Message(role: .system, text: "Be brief."), Message(role: .user, text: "Hi")])
        r.tools = [ToolDefinition(name: "lookup", description: "Looks up", parameters: ["type": "object", "properties": [:]])]
        return r
    }()

    static func key(_ r: ChatRequest = base, token: String = "tok_a", scenario: String = "chat", plan: RoutePlan = plan,
                    escalation: RoutePlan? = nil) -> ResponseCacheKey {
        ResponseCacheKey(tokenId: token, scenario: scenario, plan: plan, escalation: escalation, request: r)
    }

    static let changes: [(String, @Sendable (inout ChatRequest) -> Void)] = [
        ("model", { $0.model = "strong" }),
        ("a message's text", { $0.messages[1] = Message(role: .user, text: "Hi!") }),
        ("a message's role", { $0.messages[0].role = .user }),
        ("an image", { $0.messages[1].content.append(.image(.url("https://example.com/a.png"))) }),
        ("a tool result", { $0.messages.append(Message(role: .tool, content: [.toolResult(ToolResult(callId: "c1", text: "42"))])) }),
        ("a tool's schema", { $0.tools[0].parameters = ["type": "object", "properties": ["q": ["type": "string"]]] }),
        ("a tool's description", { $0.tools[0].description = "Finds" }),
        ("another tool", { $0.tools.append(ToolDefinition(name: "other")) }),
        ("no tools", { $0.tools = [] }),
        ("tool_choice", { $0.toolChoice = .required }),
        ("parallel_tool_calls", { $0.parallelToolCalls = false }),
        ("max_tokens", { $0.maxTokens = 10 }),
        ("temperature", { $0.temperature = 0.5 }),
        ("top_p", { $0.topP = 0.9 }),
        ("seed", { $0.seed = 1 }),
        ("frequency_penalty", { $0.frequencyPenalty = 0.1 }),
        ("presence_penalty", { $0.presencePenalty = 0.1 }),
        ("top_k", { $0.topK = 5 }),
        ("logit_bias", { $0.logitBias = ["50256": -100] }),
        ("stop", { $0.stopSequences = ["\n"] }),
        ("response_format", { $0.responseFormat = ["type": "json_object"] }),
        ("thinking", { $0.thinking = ThinkingConfig(enabled: true, budgetTokens: 1024) }),
        ("user", { $0.user = "end-user-7" }),
    ]

    @Test(arguments: 0..<23)
    func whatChangesTheAnswerChangesTheKey(_ index: Int) {
        var changed = Self.base
        Self.changes[index].1(&changed)
        #expect(Self.key(changed) != Self.key(), "\(Self.changes[index].0)")
    }

    @Test func whoAsksAndWhereItGoesChangeTheKey() {
        #expect(Self.key(token: "tok_b") != Self.key())
        #expect(Self.key(token: "tok_b").digest != Self.key().digest)
        #expect(Self.key(scenario: "other") != Self.key())
        #expect(Self.key(plan: RoutePlan(requested: "light", targets: [Self.strong], explanation: "")) != Self.key())
        #expect(Self.key(plan: RoutePlan(requested: "up/m", targets: [Self.light], explanation: "")) != Self.key())
        #expect(Self.key(escalation: RoutePlan(requested: "strong", targets: [Self.strong], explanation: "")) != Self.key())
    }

    /// Prompt-cache breakpoints, their placement and `prompt_cache_key` change what an answer costs, not what it says.
    @Test func whatChangesOnlyTheCostDoesNot() {
        var r = Self.base
        r.cachePlacement = .prefix
        r.promptCacheKey = "app-1"
        r.messages[0].cacheBreakpoints = [0: CacheControl(ttl: "1h")]
        r.tools[0].cacheControl = CacheControl()
        #expect(Self.key(r) == Self.key())
    }

    /// Texts are length-prefixed: moving a boundary between two fields changes the key.
    @Test func fieldBoundariesCount() {
        var a = Self.base, b = Self.base
        a.messages = [Message(role: .user, content: [.text("ab"), .text("c")])]
        b.messages = [Message(role: .user, content: [.text("a"), .text("bc")])]
        #expect(Self.key(a) != Self.key(b))
        a.stopSequences = ["a,b"]
        b.stopSequences = ["a", "b"]
        #expect(Self.key(a) != Self.key(b))
    }
}
