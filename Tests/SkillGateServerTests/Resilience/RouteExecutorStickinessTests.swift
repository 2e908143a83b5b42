import Testing
import SkillGateCore
import SkillGateRouting
@testable import SkillGateServer

@Suite struct RouteExecutorStickinessTests {
    typealias F = ResilienceFixtures

    static func followUp(_ id: String) -> ChatRequest {
        ChatRequest(model: "light", messages: [
            Message(role: .user, text: "weather in Paris?"),
            Message(role: .assistant, content: [.toolCall(ToolCall(id: id, name: "get_weather", arguments: "{}"))]),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: id, text: "sunny"))]),
        ])
    }

    @Test func theFollowUpGoesToTheDeploymentThatIssuedTheToolCalls() async throws {
        let h = RouteExecutorHarness([("a", [.answer(F.text("a"))]), ("b", [.answer(F.toolCalls(["call_b1"]))])])
        let onlyB = F.plan([h.targets[1]])
        #expect(try await h.complete(plan: onlyB).0.get() == "b")
        #expect(try await h.complete(Self.followUp("call_b1")).0.get() == "b", "a is first in the tier, b issued the call")
        #expect(try await h.complete(Self.followUp("call_unknown")).0.get() == "a")
    }

    @Test func toolCallsStreamedByADeploymentAreRemembered() async throws {
        let h = RouteExecutorHarness([("a", [.answer(F.text("a"))]), ("b", [.answer(F.toolCalls(["call_s1", "call_s2"]))])])
        var attempts: [AttemptRecord] = []
        var stream = try await h.executor.openStream(F.request, plan: F.plan([h.targets[1]]), caller: nil, attempts: &attempts)
        while try await stream.next() != nil {}
        #expect(try await h.complete(Self.followUp("call_s2")).0.get() == "b")
    }

    @Test func theIssuerOutsideThePlanIsAddedWhenTheScopeAllowsIt() async throws {
        let h = RouteExecutorHarness([("a", [.answer(F.text("a"))]), ("b", [.answer(F.toolCalls(["call_x"]))])])
        _ = await h.complete(plan: F.plan([h.targets[1]]))
        let onlyA = F.plan([h.targets[0]])
        let allowed = h.executor.includingIssuer(of: Self.followUp("call_x"), in: onlyA) { $0 == "b/m" ? h.targets[1] : nil }
        #expect(allowed.targets.map(\.qualifiedName) == ["b/m", "a/m"])
        #expect(allowed.explanation.contains("sticky: tool call call_x issued by b/m"))
        let refused = h.executor.includingIssuer(of: Self.followUp("call_x"), in: onlyA) { _ in nil }
        #expect(refused.targets.map(\.qualifiedName) == ["a/m"], "outside the scope: the plan stays")
        var concrete = onlyA
        concrete.requested = "a/m"
        let explicit = h.executor.includingIssuer(of: Self.followUp("call_x"), in: concrete) { $0 == "b/m" ? h.targets[1] : nil }
        #expect(explicit.targets.map(\.qualifiedName) == ["a/m"], "a client naming provider/model gets exactly that")
    }

    @Test func theIssuerGoesFirstEvenWithWeightedBalancing() async throws {
        let h = RouteExecutorHarness([("a", [.answer(F.text("a"))]), ("b", [.answer(F.toolCalls(["call_w"]))])]) {
            $0.balance = .weighted
            $0.weights = ["a/m": 100]
        }
        _ = await h.complete(plan: F.plan([h.targets[1]]))
        for _ in 0..<20 { #expect(try await h.complete(Self.followUp("call_w")).0.get() == "b") }
    }
}
