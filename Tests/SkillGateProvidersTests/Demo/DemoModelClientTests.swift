import Testing
import SkillGateCore
import SkillGateTestSupport
@testable import SkillGateProviders

@Suite struct DemoModelClientTests {
    static let time = ToolDefinition(name: "current_time", description: "The current date and time",
                                     parameters: ["type": "object", "properties": ["timezone": ["type": "string"]]])
    static let calculator = ToolDefinition(name: "calculator", description: "Evaluates an arithmetic expression",
                                           parameters: ["type": "object", "properties": ["expression": ["type": "string"]], "required": ["expression"]])
    static let weather = ToolDefinition(name: "get_weather", description: "Current weather",
                                        parameters: ["type": "object", "properties": ["location": ["type": "string"]], "required": ["location"]])
    static let tools = [time, calculator, weather]
    let demo = DemoModelClient(chunkDelay: .zero)

    private func ask(_ text: String, tools: [ToolDefinition] = Self.tools, choice: ToolChoice? = nil, model: String = "demo") -> ChatRequest {
        ChatRequest(model: model, messages: [Message(role: .user, text: text)], tools: tools, toolChoice: choice)
    }

    @Test(arguments: [
        ("What time is it?", "current_time", "{}"),
        ("What is 17*23?", "calculator", "{\"expression\":\"17*23\"}"),
        ("What's the weather in Lisbon?", "get_weather", "{\"location\":\"Lisbon\"}"),
    ])
    func callsTheToolThatServesTheQuestion(question: String, tool: String, arguments: String) async throws {
        let response = try await demo.complete(ask(question))
        #expect(response.toolCalls.map(\.name) == [tool])
        #expect(response.toolCalls.first?.arguments == arguments)
        #expect(response.finishReason == .toolCalls)
        #expect(response.text.isEmpty)
    }

    @Test func answersInTextWithoutAMatchingTool() async throws {
        let response = try await demo.complete(ask("Tell me a joke"))
        #expect(response.toolCalls.isEmpty)
        #expect(response.finishReason == .stop)
        #expect(response.text.contains("demo model"))
        #expect(response.text.contains("skillgate keys set"))
    }

    @Test func saysWhenTheToolIsMissing() async throws {
        let response = try await demo.complete(ask("What time is it?", tools: [Self.weather]))
        #expect(response.toolCalls.isEmpty)
        #expect(response.text.hasPrefix("You asked about the time, but no tool"))
    }

    @Test func toolChoiceNoneNeverCalls() async throws {
        let response = try await demo.complete(ask("What time is it?", choice: ToolChoice.none))
        #expect(response.toolCalls.isEmpty)
        #expect(response.text.contains("tool_choice none"))
    }

    @Test func toolChoiceRequiredCallsTheBestToolOrTheFirst() async throws {
        #expect(try await demo.complete(ask("What is 2+2", choice: .required)).toolCalls.map(\.name) == ["calculator"])
        let generic = try await demo.complete(ask("Hello there", choice: .required))
        #expect(generic.toolCalls.map(\.name) == ["current_time"])
    }

    @Test func namedToolChoiceCallsThatTool() async throws {
        let response = try await demo.complete(ask("What time is it?", choice: .named("get_weather")))
        #expect(response.toolCalls.map(\.name) == ["get_weather"])
        let error = await #expect(throws: GatewayError.self) { try await demo.complete(ask("hi", choice: .named("nope"))) }
        #expect(error?.param == "tool_choice")
    }

    @Test(arguments: [
        ("What is 17*23?", "391", "17 × 23 = 391."),
        ("What time is it?", "14:05 UTC", "The time is 14:05 UTC."),
        ("Weather in Rome?", "21°C, clear", "The weather in Rome: 21°C, clear."),
    ])
    func answersFromTheToolResult(question: String, result: String, expected: String) async throws {
        var request = ask(question)
        let first = try await demo.complete(request)
        let call = try #require(first.toolCalls.first)
        request.messages.append(first.message)
        request.messages.append(Message(role: .tool, content: [.toolResult(ToolResult(callId: call.id, text: result))]))
        let answer = try await demo.complete(request)
        #expect(answer.toolCalls.isEmpty)
        #expect(answer.text == expected)
        #expect(answer.finishReason == .stop)
    }

    @Test func reportsAFailedTool() async throws {
        var request = ask("What time is it?")
        let first = try await demo.complete(request)
        request.messages.append(first.message)
        request.messages.append(Message(role: .tool, content: [.toolResult(ToolResult(callId: first.toolCalls[0].id, text: "clock broken", isError: true))]))
        #expect(try await demo.complete(request).text.hasPrefix("Sorry, current_time failed: clock broken"))
    }

    @Test(arguments: ["What time is it?", "What is 17*23?", "Tell me about SkillGate", "Weather in Oslo?"])
    func streamFoldsToTheCompleteAnswer(question: String) async throws {
        let request = ask(question, model: "demo-strong")
        var events: [ChatStreamEvent] = []
        for try await event in demo.stream(request) { events.append(event) }
        var acc = ChatResponseAccumulator()
        events.forEach { acc.apply($0) }
        let completed = try await demo.complete(request)
        #expect(acc.response == completed)
        #expect(completed.model == "demo-strong")
        #expect(completed.usage.inputTokens > 0 && completed.usage.outputTokens > 0)
        let pieces = events.filter { if case .textDelta = $0 { return true }; if case .toolCallArgumentsDelta = $0 { return true }; return false }
        #expect(pieces.count > 1)
    }

    @Test func isDeterministic() async throws {
        let a = try await demo.complete(ask("Tell me a joke"))
        let b = try await demo.complete(ask("Tell me a joke"))
        let c = try await demo.complete(ask("Tell me a story"))
        #expect(a == b)
        #expect(a.id.hasPrefix("demo-"))
        #expect(a.id != c.id)
    }

    @Test func maxTokensCutsTheTextWithFinishLength() async throws {
        var request = ask("Tell me a joke")
        request.maxTokens = 5
        let response = try await demo.complete(request)
        #expect(response.finishReason == .length)
        #expect(response.text.unicodeScalars.count == 20)
        #expect(response.usage.outputTokens == 5)
    }

    @Test func cancellingTheConsumerEndsTheStreamPromptly() async throws {
        // 1 s per chunk: the whole answer takes over 30 s; a cancelled one ends far sooner even on a loaded machine.
        let slow = DemoModelClient(chunkDelay: .seconds(1))
        let request = ask("Tell me a joke")
        let total = try await DemoModelClient(chunkDelay: .zero).complete(request).text.split(separator: " ").count
        // The consumer on a thread of its own, timed from the cancel: what is measured is the stream's reaction, not
        // how long the cooperative pool, kept busy by the tests running in parallel, takes to run a resumed task.
        let (received, afterCancel) = try await onOwnThread {
            try await withThrowingTaskGroup(of: Int.self) { group in
                group.addTask {
                    var received = 0
                    for try await event in slow.stream(request) {
                        if case .textDelta = event { received += 1 }
                    }
                    return received
                }
                try await Task.sleep(for: .milliseconds(300))
                let cancelled = ContinuousClock.now
                group.cancelAll()
                let received = try await group.next() ?? -1
                return (received, ContinuousClock.now - cancelled)
            }
        }
        #expect(received >= 0 && received < total)
        // The whole answer would take total × 1 s (over 30 s).
        #expect(afterCancel < .seconds(5))
        #expect(total > 30)
    }
}
