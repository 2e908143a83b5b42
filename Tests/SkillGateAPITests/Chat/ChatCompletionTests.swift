import Foundation
import SkillGateAPI
import Testing

@Suite("Chat completion types")
struct ChatCompletionTests {
    @Test func requestUsesTheOpenAIFieldNames() throws {
        let request = ChatCompletionRequest(model: "light", messages: [.system("Be brief"), .user("Hi")], maxTokens: 64, stream: true,
                                            streamOptions: .init(includeUsage: true))
        let json = String(decoding: try CompactJSONEncoder().encode(request), as: UTF8.self)
        #expect(json == #"{"model":"light","messages":[{"role":"system","content":"Be brief"},{"role":"user","content":"Hi"}],"#
            + #""max_tokens":64,"stream":true,"stream_options":{"include_usage":true}}"#)
    }

    @Test func decodesACompletionWithToolCallsAndUsage() throws {
        let json = #"""
        {"id":"chatcmpl-1","object":"chat.completion","created":1764489600,"model":"demo/demo-light",
         "choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":null,
           "tool_calls":[{"id":"call_1","type":"function","function":{"name":"current_time","arguments":"{}"}}]},
           "logprobs":null,"finish_reason":"tool_calls"}],
         "usage":{"prompt_tokens":12,"completion_tokens":5,"total_tokens":17}}
        """#
        let completion = try JSONDecoder().decode(ChatCompletion.self, from: Data(json.utf8))
        #expect(completion.model == "demo/demo-light")
        #expect(completion.text == nil)
        #expect(completion.choices[0].finishReason == "tool_calls")
        #expect(completion.choices[0].message.toolCalls == [ChatToolCall(id: "call_1", name: "current_time", arguments: "{}")])
        #expect(completion.usage == .init(promptTokens: 12, completionTokens: 5, totalTokens: 17))
    }

    @Test(arguments: [
        (#"{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}"#,
         ChatCompletionChunk(id: "c", created: 1, model: "m", choices: [.init(index: 0, delta: .init(role: .assistant, content: ""))])),
        (#"{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":""}}]},"finish_reason":null}]}"#,
         ChatCompletionChunk(id: "c", created: 1, model: "m", choices: [.init(index: 0, delta: .init(toolCalls: [
             .init(index: 0, id: "call_1", type: "function", function: .init(name: "f", arguments: "")),
         ]))])),
        (#"{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}"#,
         ChatCompletionChunk(id: "c", created: 1, model: "m", choices: [], usage: .init(promptTokens: 1, completionTokens: 2, totalTokens: 3))),
    ])
    func decodesTheChunksOfAStream(_ json: String, _ expected: ChatCompletionChunk) throws {
        #expect(try JSONDecoder().decode(ChatCompletionChunk.self, from: Data(json.utf8)) == expected)
    }

    /// A refusal, whole and streamed, as the gateway writes it (decision 0114): the client reads it in `refusal`.
    @Test func decodesARefusalWholeAndStreamed() throws {
        let whole = #"{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"I can't."},"logprobs":null,"finish_reason":"stop"}]}"#
        let completion = try JSONDecoder().decode(ChatCompletion.self, from: Data(whole.utf8))
        #expect(completion.choices.first?.message.refusal == "I can't." && completion.text == nil)
        let piece = #"{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"refusal":"I can't."},"logprobs":null,"finish_reason":null}]}"#
        let chunk = try JSONDecoder().decode(ChatCompletionChunk.self, from: Data(piece.utf8))
        #expect(chunk.choices.first?.delta.refusal == "I can't." && chunk.text == nil)
        let assistant = String(decoding: try CompactJSONEncoder().encode(ChatMessage.assistant("Hi")), as: UTF8.self)
        #expect(assistant == #"{"role":"assistant","content":"Hi"}"#, "no refusal member when there is none")
    }
}
