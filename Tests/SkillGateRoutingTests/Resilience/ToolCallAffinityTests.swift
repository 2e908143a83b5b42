import Testing
import SkillGateCore
import SkillGateRouting

@Suite struct ToolCallAffinityTests {
    static func followUp(answering ids: [String]) -> ChatRequest {
        ChatRequest(model: "light", messages: [
            Message(role: .user, text: "weather?"),
            Message(role: .assistant, content: ids.map { .toolCall(ToolCall(id: $0, name: "get_weather", arguments: "{}")) }),
            Message(role: .tool, content: ids.map { .toolResult(ToolResult(callId: $0, content: [.text("sunny")])) }),
        ])
    }

    @Test func findsTheIssuerOfTheAnsweredToolCalls() {
        let a = ToolCallAffinity(capacity: 100)
        a.remember(["call_1", "call_2"], deployment: "b/model")
        let hit = a.issuer(of: Self.followUp(answering: ["call_2"]))
        #expect(hit?.deployment == "b/model" && hit?.callId == "call_2")
        #expect(a.issuer(of: Self.followUp(answering: ["call_9"])) == nil)
    }

    @Test func onlyResultsAfterTheLastAssistantTurnCount() {
        let a = ToolCallAffinity(capacity: 100)
        a.remember("old", deployment: "a/model")
        var r = Self.followUp(answering: ["old"])
        r.messages.append(Message(role: .assistant, text: "done"))
        r.messages.append(Message(role: .user, text: "thanks"))
        #expect(a.issuer(of: r) == nil, "a new user turn is not a tool-call follow-up")
    }

    @Test func staysWithinItsCapacity() {
        let a = ToolCallAffinity(capacity: 10)
        for i in 0..<1000 { a.remember("call_\(i)", deployment: "a/m") }
        #expect(a.count <= 10)
        #expect(a.deployment(for: "call_999") == "a/m")
        #expect(a.deployment(for: "call_0") == nil)
    }

    @Test func aLookedUpIdSurvivesLongerThanAnUntouchedOne() {
        let a = ToolCallAffinity(capacity: 4)
        a.remember("keep", deployment: "a/m")
        a.remember("drop", deployment: "a/m")
        a.remember("x1", deployment: "a/m")  // young full → keep, drop become old
        #expect(a.deployment(for: "keep") == "a/m")  // promoted into the young generation
        a.remember("x2", deployment: "a/m")
        a.remember("x3", deployment: "a/m")  // young full again → old generation dropped
        #expect(a.deployment(for: "keep") == "a/m")
        #expect(a.deployment(for: "drop") == nil)
    }

    @Test func capacityZeroDisablesStickiness() {
        let a = ToolCallAffinity(capacity: 0)
        a.remember("call_1", deployment: "a/m")
        #expect(a.issuer(of: Self.followUp(answering: ["call_1"])) == nil)
    }
}
