import Foundation
import SkillGateClient
import Testing

/// `chat(_:)` and `chatStream(_:)` against a real gateway with the demo model.
@Suite(.serialized) struct SkillGateClientChatTests {
    @Test func chatReturnsTheWholeAnswer() async throws {
        let gateway = try ClientGatewayHarness()
        let client = SkillGateClient(baseURL: gateway.baseURL, token: gateway.token)
        let answer = try await client.chat(ChatCompletionRequest(model: "light", messages: [.user("Hello")]))
        let tools = try await client.chat(ChatCompletionRequest(model: "light", messages: [.user("What time is it?")], tools: [
            ChatTool(name: "current_time", description: "The current time", parameters: ["type": "object", "properties": [:]]),
        ]))
        await gateway.stop()
        #expect(answer.object == "chat.completion")
        #expect(answer.model == "demo/demo-light")
        #expect(answer.choices.first?.finishReason == "stop")
        #expect(answer.text?.isEmpty == false)
        #expect((answer.usage?.totalTokens ?? 0) > 0)
        #expect(tools.choices.first?.finishReason == "tool_calls")
        #expect(tools.choices.first?.message.toolCalls?.map(\.function.name) == ["current_time"])
    }

    @Test func chatStreamDeliversTheChunksInOrder() async throws {
        let gateway = try ClientGatewayHarness()
        let client = SkillGateClient(baseURL: gateway.baseURL, token: gateway.token)
        let question = ChatCompletionRequest(model: "light", messages: [.user("Hello")])
        var streamed = question
        streamed.streamOptions = .init(includeUsage: true)
        var chunks: [ChatCompletionChunk] = []
        for try await chunk in client.chatStream(streamed) { chunks.append(chunk) }
        let whole = try await client.chat(question)
        await gateway.stop()
        let text = chunks.compactMap(\.text).joined()
        #expect(text == whole.text)
        #expect(chunks.filter { !($0.text ?? "").isEmpty }.count > 2, "the demo model streams word by word")
        #expect(chunks.first?.choices.first?.delta.role == .assistant)
        let finishes = chunks.compactMap { $0.choices.first?.finishReason }
        #expect(finishes == ["stop"])
        #expect(chunks.last?.choices.isEmpty == true)
        #expect((chunks.last?.usage?.completionTokens ?? 0) > 0)
        #expect(Set(chunks.map(\.id)).count == 1)
    }
}
