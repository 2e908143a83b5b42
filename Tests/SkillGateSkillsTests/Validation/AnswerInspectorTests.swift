import Testing
import SkillGateCore
@testable import SkillGateSkills

@Suite struct AnswerInspectorTests {
    static let weather = ToolDefinition(name: "get_weather", parameters: ["type": "object", "properties": ["city": ["type": "string"]], "required": ["city"]])
    let inspector = AnswerInspector(offered: [weather])

    private func answer(_ content: [ContentBlock]) -> ChatResponse {
        ChatResponse(id: "r", model: "m", content: content, finishReason: .stop)
    }

    @Test func usableAnswersHaveNoProblems() {
        #expect(inspector.problems(in: answer([.text("Sunny.")])).isEmpty)
        #expect(inspector.problems(in: answer([.toolCall(ToolCall(id: "c1", name: "get_weather", arguments: #"{"city":"Oslo"}"#))])).isEmpty)
    }

    @Test func aCallToAToolThatWasNotShownIsFoundFirst() {
        let problems = inspector.problems(in: answer([
            .toolCall(ToolCall(id: "c1", name: "get_weather", arguments: "{}")),
            .toolCall(ToolCall(id: "c2", name: "delete_files", arguments: "{}")),
        ]))
        #expect(problems.first == .toolNotOffered(name: "delete_files", callId: "c2"))
        #expect(problems.map(\.code) == ["tool_not_offered", "invalid_tool_arguments"])
        #expect(inspector.invisibleCalls(in: [.toolCall(ToolCall(id: "c", name: "x", arguments: ""))]).count == 1)
        #expect(!inspector.isOffered("delete_files") && inspector.isOffered("get_weather"))
    }

    @Test func emptyAndWhitespaceAnswersAreUnusable() {
        #expect(inspector.problems(in: answer([])) == [.emptyAnswer])
        #expect(inspector.problems(in: answer([.text(" \n "), .thinking(Thinking(text: "hmm"))])) == [.emptyAnswer])
    }

    @Test func nothingOfferedMeansEveryCallIsInvisible() {
        let none = AnswerInspector(offered: [])
        #expect(none.problems(in: answer([.toolCall(ToolCall(id: "c", name: "get_weather", arguments: "{}"))])).map(\.code) == ["tool_not_offered"])
    }

    @Test func aToolDeclaredTwiceIsCheckedAgainstItsLastDeclaration() {
        let strict = ToolDefinition(name: "get_weather", parameters: ["type": "object", "properties": ["days": ["type": "integer"]], "required": ["days"]])
        let call = answer([.toolCall(ToolCall(id: "c1", name: "get_weather", arguments: #"{"city":"Oslo"}"#))])
        #expect(AnswerInspector(offered: [strict, Self.weather]).problems(in: call).isEmpty)
        #expect(AnswerInspector(offered: [Self.weather, strict]).problems(in: call).map(\.code) == ["invalid_tool_arguments"])
        #expect(AnswerInspector(offered: [Self.weather, strict]).tool(named: "get_weather")?.parameters == strict.parameters)
    }

    /// Several calls among many tools go through a table by name: the same answers as scanning, last declaration first.
    @Test func manyToolsAndSeveralCallsFindTheSameProblems() {
        let many = (0..<(AnswerInspector.scanLimit + 8)).map { ToolDefinition(name: "tool_\($0)", parameters: ["type": "object"]) }
        let strict = ToolDefinition(name: "get_weather", parameters: ["type": "object", "properties": ["days": ["type": "integer"]], "required": ["days"]])
        let call = #"{"city":"Oslo"}"#
        let calls = answer([.toolCall(ToolCall(id: "c1", name: "tool_3", arguments: "{}")),
                            .toolCall(ToolCall(id: "c2", name: "delete_files", arguments: "{}")),
                            .toolCall(ToolCall(id: "c3", name: "get_weather", arguments: call))])
        #expect(AnswerInspector(offered: many + [strict, Self.weather]).problems(in: calls) == [.toolNotOffered(name: "delete_files", callId: "c2")])
        #expect(AnswerInspector(offered: many + [Self.weather, strict]).problems(in: calls).map(\.code) == ["tool_not_offered", "invalid_tool_arguments"])
    }
}
