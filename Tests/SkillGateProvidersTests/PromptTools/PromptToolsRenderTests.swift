import Testing
import SkillGateCore
@testable import SkillGateProviders

@Suite struct PromptToolsRenderTests {
    private let client = PromptToolsClient(inner: PromptToolsTextModel(""))

    @Test func rendersToolSignaturesAndTheCallFormatIntoTheSystemPrompt() throws {
        let request = ChatRequest(model: "m", messages: [Message(role: .system, text: "Be brief."), Message(role: .user, text: "Weather?")],
                                  tools: [PromptToolsTesting.weather, PromptToolsTesting.time])
        let inner = try client.innerRequest(for: request)
        #expect(inner.tools.isEmpty)
        #expect(inner.toolChoice == nil)
        #expect(inner.messages.count == 2)
        let system = try #require(inner.messages.first { $0.role == .system }).text
        #expect(system.hasPrefix("Be brief.\n\n# Tools"))
        #expect(system.contains("<tools>\n{\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"description\":\"Current weather for a city\",\"parameters\":{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}},\"required\":[\"city\"]}}}\n{\"type\":\"function\",\"function\":{\"name\":\"current_time\""))
        #expect(system.contains("</tools>"))
        #expect(system.contains("<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>"))
        #expect(inner.messages[1] == Message(role: .user, text: "Weather?"))
    }

    @Test func toolChoiceNoneRendersNoTools() throws {
        let request = ChatRequest(model: "m", messages: [Message(role: .user, text: "Hi")],
                                  tools: [PromptToolsTesting.weather], toolChoice: ToolChoice.none)
        let inner = try client.innerRequest(for: request)
        #expect(inner.messages == [Message(role: .user, text: "Hi")])
    }

    @Test func requiredAndNamedChoicesAddAnInstruction() throws {
        var request = ChatRequest(model: "m", messages: [Message(role: .user, text: "Hi")],
                                  tools: [PromptToolsTesting.weather, PromptToolsTesting.time], toolChoice: .required)
        #expect(try client.innerRequest(for: request).systemText?.contains("You must call at least one") == true)
        request.toolChoice = .named("current_time")
        let system = try #require(try client.innerRequest(for: request).systemText)
        #expect(system.contains("You must call the function \"current_time\""))
        #expect(!system.contains("get_weather"))
    }

    @Test func namedChoiceOfAMissingToolIsACallerError() throws {
        let request = ChatRequest(model: "m", messages: [Message(role: .user, text: "Hi")],
                                  tools: [PromptToolsTesting.weather], toolChoice: .named("nope"))
        let error = #expect(throws: GatewayError.self) { try client.innerRequest(for: request) }
        #expect(error?.param == "tool_choice")
        #expect(error?.status == 400)
    }

    @Test func rendersToolCallsAndResultsInTheHistoryAsText() throws {
        let call = ToolCall(id: "call_1", name: "get_weather", arguments: "{\"city\": \"Paris\"}")
        let call2 = ToolCall(id: "call_2", name: "current_time", arguments: "")
        let request = ChatRequest(model: "m", messages: [
            Message(role: .user, text: "Weather and time?"),
            Message(role: .assistant, content: [.text("Checking."), .toolCall(call), .toolCall(call2)]),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: "call_1", text: "18°C, sunny"))]),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: "call_2", text: "no clock", isError: true))]),
            Message(role: .user, text: "Thanks!"),
        ], tools: [PromptToolsTesting.weather, PromptToolsTesting.time])
        let messages = try client.innerRequest(for: request).messages.filter { $0.role != .system }
        #expect(messages.map(\.role) == [.user, .assistant, .user])
        #expect(messages[1].text == """
            Checking.
            <tool_call>
            {"name": "get_weather", "arguments": {"city":"Paris"}}
            </tool_call>
            <tool_call>
            {"name": "current_time", "arguments": {}}
            </tool_call>
            """)
        #expect(messages[2].text == """
            <tool_response>
            18°C, sunny
            </tool_response>
            <tool_response>
            Error: no clock
            </tool_response>
            Thanks!
            """)
    }
}
